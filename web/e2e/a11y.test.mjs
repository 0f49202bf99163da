// End-to-end accessibility gate: axe-core over every route of the router (./route-walk.mjs),
// in English and in French, on a laptop's window and on a phone's, signed in as the audience
// each route is for (public routes signed out), once the screen has loaded. A serious or
// critical violation fails the route's test and names the rule, the route and the elements;
// so does an <html lang> that is not the page's.
import assert from 'node:assert/strict';
import { seriousViolations } from './axe.mjs';
import { DESKTOP, PHONE, walkEveryRoute } from './route-walk.mjs';

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
