// The accessibility check of the route walk (every-route.test.mjs): axe-core on a route's
// screen once loaded, in English and in French, on a laptop's window and on a phone's, signed
// in as the audience the route is for (public routes signed out). A serious or critical
// violation names the rule, the route and the elements; so does an <html lang> that is not
// the page's.
import { seriousViolations } from './axe.mjs';

/** The accessibility problems of the screen on `page`, as readable lines. */
export async function accessibilityProblems(page, { path, shown, language, size }) {
  const problems = [];
  // <html lang> follows the page's language: French under /fr, else the stored one.
  const french = shown === '/fr' || shown.startsWith('/fr/');
  const lang = await page.evaluate(() => globalThis.document.documentElement.lang);
  if (lang !== (french ? 'fr' : language)) problems.push(`<html lang="${lang}"> on ${shown}`);
  const violations = await seriousViolations(page);
  if (violations.length > 0) {
    problems.push(
      `${violations.length} serious or critical axe violations on ${path} (${language}, ${size.width} px, shown at ${shown}):\n${violations.join('\n')}`,
    );
  }
  return problems;
}
