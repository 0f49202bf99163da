// End-to-end accessibility gate: axe-core over every route of the router (./route-walk.mjs),
// in English and in French, on a laptop's window and on a phone's, signed in as the audience
// each route is for (public routes signed out), once the screen has loaded. A serious or
// critical violation fails the route's test and names the rule, the route and the elements;
// so does an <html lang> that is not the page's.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { DESKTOP, PHONE, walkEveryRoute } from './route-walk.mjs';

// Evaluated through the DevTools protocol rather than added as a <script>: the app's
// Content-Security-Policy (rightly) refuses inline scripts.
const AXE_SOURCE = await readFile(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
const FAILING_IMPACTS = new Set(['serious', 'critical']);

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

walkEveryRoute('accessibility of every route', {
  sizes: [DESKTOP, PHONE],
  async check(page, { path, shown, language, size }) {
    // <html lang> follows the page's language: French under /fr, else the stored one.
    const french = shown === '/fr' || shown.startsWith('/fr/');
    const lang = await page.evaluate(() => globalThis.document.documentElement.lang);
    assert.equal(lang, french ? 'fr' : language, `<html lang> on ${shown}`);
    const problems = await seriousViolations(page);
    assert.deepEqual(
      problems,
      [],
      `${problems.length} serious or critical axe violations on ${path} (${language}, ${size.width} px, shown at ${shown}):\n${problems.join('\n')}`,
    );
  },
});
