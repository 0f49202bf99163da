// End-to-end accessibility gate: axe-core over every route of the router (./route-views.mjs),
// in English and in French, signed in as the audience each route is for (public routes signed
// out), once the screen has loaded. A serious or critical violation fails the route's test and
// names the rule, the route and the elements; so does an <html lang> that is not the page's.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, openBrowser } from './browser.mjs';
import { loadRouteViews } from './route-views.mjs';
import { createAccounts } from './test-accounts.mjs';

// Evaluated through the DevTools protocol rather than added as a <script>: the app's
// Content-Security-Policy (rightly) refuses inline scripts.
const AXE_SOURCE = await readFile(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
const FAILING_IMPACTS = new Set(['serious', 'critical']);
const LANGUAGES = ['en', 'fr'];

const { views, fillPattern } = await loadRouteViews();
const audiences = [...new Set(views.map((view) => view.audience))];

/** The screens whose id is a repair request's. */
const REQUEST_SCREEN = /-request\/:id$|^\/request-apply\/:id$|^\/application-list\/:id$/;

/** The screens whose id is a quote's. */
const QUOTE_SCREEN = /^\/view-application\/:id$|^\/hire\/:id$/;

/**
 * Sample values for a route's parameters, from the accounts that make the screen real: the
 * customer's request on the request screens, a quote on it on the quote screens, an account's
 * own id on its onboarding and professional screens, the customer on the user screens, the
 * professional the admin reviews on the admin's, an approved professional else.
 */
function sampleParams(pattern, audience, accounts) {
  let id = accounts['professional-approved'].id;
  if (REQUEST_SCREEN.test(pattern)) {
    id = accounts.requestId;
  } else if (QUOTE_SCREEN.test(pattern)) {
    id = accounts.quoteId;
  } else if (audience.endsWith('onboarding') || audience.startsWith('professional')) {
    id = accounts[audience].id;
  } else if (audience === 'admin' && pattern.includes('-service/')) {
    id = accounts.serviceId;
  } else if (audience === 'admin') {
    id = pattern.includes('user') ? accounts.customer.id : accounts.admin.id;
  } else if (audience === 'public') {
    id = accounts.customer.id;
  }
  return { id, phone: '14035550100', token: 'an-expired-link', req_id: accounts.requestId };
}

/**
 * Waits until the screen shows its title, nothing is loading any more and no transition is
 * running: a dialog that opens with the screen fades in, and axe measuring its colours
 * half-way reads contrasts no reader ever sees.
 */
async function screenLoaded(page) {
  await page.waitForFunction(
    () =>
      globalThis.document.querySelector('h1') !== null &&
      globalThis.document.querySelector('.chakra-spinner') === null &&
      globalThis.document.querySelector('[data-testid="full-page-loader"]') === null &&
      globalThis.document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getTiming().iterations === Infinity,
        ),
    null,
    { timeout: 15_000 },
  );
}

/** Runs axe on the page; the serious and critical violations as readable lines. */
async function seriousViolations(page) {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await globalThis.axe.run(globalThis.document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
    }));
  });
  return violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact))
    .map(
      ({ id, impact, help, nodes }) =>
        `${id} (${impact}): ${help}\n${nodes.map((node) => `    - ${node}`).join('\n')}`,
    );
}

describe('accessibility of every route', { concurrency: 3 }, () => {
  /** @type {Awaited<ReturnType<typeof createAccounts>>} */
  let accounts;
  /** One signed-in browser per audience. */
  const browsers = new Map();
  const startedAt = Date.now();
  /** Views a guard sent elsewhere (the account is not in the state the screen needs). */
  const redirected = new Set();

  before(async () => {
    accounts = await createAccounts();
    for (const audience of audiences) {
      const browser = await openBrowser();
      await browser.page.goto(`${BASE_URL}/no-such-page`);
      await browser.page.evaluate((entries) => {
        for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
      }, accounts[audience].storage);
      browsers.set(audience, browser);
    }
  });

  after(async () => {
    await Promise.all([...browsers.values()].map((browser) => browser.close()));
    const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
    console.log(
      `axe walk: ${views.length * LANGUAGES.length} route views (${views.length} routes x ${LANGUAGES.length} languages) in ${seconds} s; ${redirected.size} routes shown elsewhere by their guards:\n${[...redirected].sort().join('\n')}`,
    );
  });

  // Each audience has its own browser, so audiences are walked side by side.
  for (const audience of audiences) {
    describe(audience, { concurrency: 1 }, () => {
      for (const language of LANGUAGES) {
        for (const { pattern } of views.filter((view) => view.audience === audience)) {
          it(`${pattern} (${language})`, async () => {
            const { page } = browsers.get(audience);
            await page.evaluate((lang) => localStorage.setItem('lang', lang), language);
            const path = fillPattern(pattern, sampleParams(pattern, audience, accounts));
            await page.goto(`${BASE_URL}${path}`);
            await screenLoaded(page);
            const shown = new URL(page.url()).pathname;
            if (shown !== path && shown !== `/fr${path === '/' ? '' : path}`) {
              redirected.add(`${pattern} -> ${shown}`);
            }
            // <html lang> follows the page's language: French under /fr, else the stored one.
            const french = shown === '/fr' || shown.startsWith('/fr/');
            const lang = await page.evaluate(() => globalThis.document.documentElement.lang);
            assert.equal(lang, french ? 'fr' : language, `<html lang> on ${shown}`);
            const problems = await seriousViolations(page);
            assert.deepEqual(
              problems,
              [],
              `${problems.length} serious or critical axe violations on ${path} (${language}, shown at ${shown}):\n${problems.join('\n')}`,
            );
          });
        }
      }
    });
  }
});
