// End-to-end walk of every route of the router (./route-walk.mjs), in English and in French,
// at a laptop's and a phone's width, signed in as the audience each route is for: each view
// is drawn once and checked for accessibility (./accessibility-check.mjs), for fitting its
// window (./fit-check.mjs) and, on the phone, for targets a finger can press
// (./target-check.mjs). A route fails naming every problem the checks found.
import assert from 'node:assert/strict';
import { accessibilityProblems } from './accessibility-check.mjs';
import { fitProblems } from './fit-check.mjs';
import { DESKTOP, PHONE, walkEveryRoute } from './route-walk.mjs';
import { targetProblems } from './target-check.mjs';

walkEveryRoute('every route: accessible, fitting its window, with targets a finger can press', {
  sizes: [DESKTOP, PHONE],
  async check(page, view) {
    // axe first: the fit check unfolds every <details> of the page, whose targets are then
    // measured too.
    const problems = [
      ...(await accessibilityProblems(page, view)),
      ...(await fitProblems(page, view)),
      ...(view.size === PHONE ? await targetProblems(page, view) : []),
    ];
    assert.deepEqual(problems, [], problems.join('\n'));
  },
});
