// The target check of the route walk (every-route.test.mjs), on a phone (390 x 844): every
// visible thing a finger presses is at least 44 x 44 CSS px (./targets.mjs: links, buttons,
// selects, summaries, menu items, tabs, and radios and checkboxes through their label row;
// a link inside running text left out). Tests that open a menu or a drawer call it again
// with it open.
import { MIN_TARGET, smallTargets } from './targets.mjs';

/** The targets on `page` smaller than 44 x 44 px, as readable lines. */
export async function targetProblems(page, { path, shown, language, size }) {
  const small = await smallTargets(page);
  return small.length === 0
    ? []
    : [
        `${small.length} targets under ${MIN_TARGET} x ${MIN_TARGET} px on ${path} (${language}, ${size.width} px, shown at ${shown}):\n${small.join('\n')}`,
      ];
}
