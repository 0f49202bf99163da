// The walk over every route of the router (./route-views.mjs), in English and in French and at
// the window sizes a test asks for, signed in as the audience each route is for (public
// routes signed out, the accounts of ./test-accounts.mjs), once the screen has loaded. The
// accessibility gate (axe) and the fit check (nothing wider than the window) walk it.
import { after, before, describe, it } from 'node:test';
import { screenLoaded } from './axe.mjs';
import { BASE_URL, openBrowser } from './browser.mjs';
import { loadRouteViews } from './route-views.mjs';
import { createAccounts } from './test-accounts.mjs';

/** A phone held upright (an iPhone 14's CSS pixels) and a laptop's window. */
export const PHONE = { name: 'phone', width: 390, height: 844 };
export const DESKTOP = { name: 'desktop', width: 1280, height: 800 };

const LANGUAGES = ['en', 'fr'];

const { views, fillPattern } = await loadRouteViews();
const audiences = [...new Set(views.map((view) => view.audience))];

/** The screens whose id is a repair request's. */
const REQUEST_SCREEN = /-request\/:id$|^\/request-apply\/:id$|^\/application-list\/:id$/;

/** The screens whose id is a quote's. */
const QUOTE_SCREEN = /^\/view-application\/:id$|^\/hire\/:id$/;

/** The screens whose id is a payment's (a receipt: walked as the customer who paid). */
const PAYMENT_SCREEN = /^\/receipts\/:id$/;

/** A card dispute's id no dispute has (the walk's gateway takes none): the page's not-found state. */
const NO_DISPUTE = '0190a6c0-9999-7000-8000-000000000009';

/**
 * Sample values for a route's parameters, from the accounts that make the screen real: the
 * customer's request on the request screens, a quote on it on the quote screens, the payment
 * of one of the customer's hires on the receipt screen, an account's
 * own id on its onboarding and professional screens, the customer on the user screens, the
 * professional the admin reviews on the admin's (the hired one on the payouts screen), an
 * approved professional else.
 */
function sampleParams(pattern, audience, accounts) {
  let id = accounts['professional-approved'].id;
  if (REQUEST_SCREEN.test(pattern)) {
    id = accounts.requestId;
  } else if (QUOTE_SCREEN.test(pattern)) {
    id = accounts.quoteId;
  } else if (PAYMENT_SCREEN.test(pattern)) {
    id = accounts.paymentId;
  } else if (audience.endsWith('onboarding') || audience.startsWith('professional')) {
    id = accounts[audience].id;
  } else if (audience === 'admin' && pattern.includes('-service/')) {
    id = accounts.serviceId;
  } else if (audience === 'admin' && pattern.includes('-payouts/')) {
    id = accounts['professional-approved'].id;
  } else if (audience === 'admin') {
    id = pattern.includes('user') ? accounts.customer.id : accounts.admin.id;
  } else if (audience === 'public') {
    id = accounts.customer.id;
  }
  return {
    id,
    phone: '14035550100',
    token: 'an-expired-link',
    req_id: accounts.requestId,
    disputeId: NO_DISPUTE,
  };
}

/**
 * Declares the walk as tests named `name`: one test per route, language and window size,
 * which opens the route and calls `check(page, view)` with `view` = { path, shown (the path
 * the guards showed), language, size }. Audiences are walked side by side, each in its own
 * browser; the routes a guard showed elsewhere are listed at the end.
 */
export function walkEveryRoute(name, { sizes, check }) {
  describe(name, { concurrency: 3 }, () => {
    /** @type {Awaited<ReturnType<typeof createAccounts>>} */
    let accounts;
    /** One signed-in browser per audience. */
    const browsers = new Map();
    const startedAt = Date.now();
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
      const count = views.length * LANGUAGES.length * sizes.length;
      console.log(
        `${name}: ${count} route views (${views.length} routes x ${LANGUAGES.length} languages x ${sizes.length} window sizes) in ${seconds} s; ${redirected.size} routes shown elsewhere by their guards:\n${[...redirected].sort().join('\n')}`,
      );
    });

    for (const audience of audiences) {
      describe(audience, { concurrency: 1 }, () => {
        for (const size of sizes) {
          for (const language of LANGUAGES) {
            for (const { pattern } of views.filter((view) => view.audience === audience)) {
              it(`${pattern} (${language}, ${size.width} px)`, async () => {
                const { page } = browsers.get(audience);
                await page.setViewportSize({ width: size.width, height: size.height });
                await page.evaluate((lang) => localStorage.setItem('lang', lang), language);
                const path = fillPattern(pattern, sampleParams(pattern, audience, accounts));
                await page.goto(`${BASE_URL}${path}`);
                await screenLoaded(page);
                const shown = new URL(page.url()).pathname;
                if (shown !== path && shown !== `/fr${path === '/' ? '' : path}`) {
                  redirected.add(`${pattern} -> ${shown}`);
                }
                await check(page, { path, shown, language, size });
              });
            }
          }
        }
      });
    }
  });
}
