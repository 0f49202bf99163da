// axe-core in the page under test: the serious and critical violations of the page as it
// stands (a route once loaded, a dialog open, a list filled), as readable lines.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

// Evaluated through the DevTools protocol rather than added as a <script>: the app's
// Content-Security-Policy (rightly) refuses inline scripts.
const AXE_SOURCE = await readFile(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/** Runs axe on the page; the serious and critical violations as readable lines. */
export async function seriousViolations(page) {
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

/**
 * Waits until no transition is running (endless ones, such as a spinner's, aside): a dialog
 * fading in, measured half-way, has colours no reader ever sees.
 */
export async function transitionsEnded(page) {
  await page.waitForFunction(
    () =>
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

/**
 * Waits until the screen shows its title, nothing is loading any more and no transition is
 * running: a dialog that opens with the screen fades in, and measuring it half-way reads
 * colours and sizes no reader ever sees.
 */
export async function screenLoaded(page) {
  await page.waitForFunction(
    () =>
      globalThis.document.querySelector('h1') !== null &&
      globalThis.document.querySelector('.chakra-spinner') === null &&
      globalThis.document.querySelector('[data-testid="full-page-loader"]') === null,
    null,
    { timeout: 15_000 },
  );
  await transitionsEnded(page);
}

/**
 * Fails, naming the rules and the elements, when axe finds a serious or critical violation
 * on the page at rest (the pointer moved off what it last pressed, every transition ended).
 */
export async function assertAccessible(page, what) {
  await page.mouse.move(0, 0);
  await transitionsEnded(page);
  const problems = await seriousViolations(page);
  assert.deepEqual(
    problems,
    [],
    `${problems.length} serious or critical axe violations on ${what}:\n${problems.join('\n')}`,
  );
}
