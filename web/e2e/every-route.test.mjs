// End-to-end walk of every route of the router (./route-walk.mjs), in English and in French,
// at a laptop's and a phone's width, signed in as the audience each route is for: each view
// is drawn once and checked for accessibility (./accessibility-check.mjs) and for fitting its
// window (./fit-check.mjs). A route fails naming every problem either check found.
import assert from 'node:assert/strict';
import { accessibilityProblems } from './accessibility-check.mjs';
import { fitProblems } from './fit-check.mjs';
import { DESKTOP, PHONE, walkEveryRoute } from './route-walk.mjs';

walkEveryRoute('every route: accessible, and fitting its window', {
  sizes: [DESKTOP, PHONE],
  async check(page, view) {
    // axe first: the fit check unfolds every <details> of the page.
    const problems = [
      ...(await accessibilityProblems(page, view)),
      ...(await fitProblems(page, view)),
    ];
    assert.deepEqual(problems, [], problems.join('\n'));
  },
});
