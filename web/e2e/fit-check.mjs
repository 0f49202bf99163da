// The fit check of the route walk (every-route.test.mjs): every route, in English and in
// French, on a phone (390 x 844) and on a laptop (1280 x 800), signed in as the audience each
// route is for, with rows in the tables (orders on hold and captured, a licence, a coupon).
// A route fails, naming its elements, when the page is wider than the window, when an
// element passes the window's right edge, or when an element is cut by a scroll area that no
// keyboard can scroll (one that is not a focusable, labelled region): a person would not
// see it, or could not reach it, without a sideways scroll the app does not offer.

/**
 * What overflows the window on the open page, as readable lines (run in the page). An element
 * is measured against the window and against the nearest scroll area it lies in; elements no
 * one sees (hidden, clipped to nothing, visually hidden for screen readers) are left out, and
 * inside an element that overflows only the controls (links, buttons, fields) are named again.
 * Folded parts (`<details>`) are measured unfolded.
 */
function overflowsInPage() {
  const { document, getComputedStyle, innerWidth } = globalThis;
  const windowWidth = document.documentElement.clientWidth || innerWidth;
  const SLACK = 1;
  const lines = [];
  // What a person can unfold is measured unfolded.
  for (const details of document.querySelectorAll('details')) details.open = true;
  const pageWidth = document.documentElement.scrollWidth;
  if (pageWidth > windowWidth + SLACK) {
    lines.push(`the page is ${pageWidth} px wide in a ${windowWidth} px window`);
  }

  const scrollsSideways = (element, style) =>
    style.overflowX === 'auto' || style.overflowX === 'scroll';
  /** A scroll area a keyboard can scroll: it takes the focus and says what it holds. */
  const keyboardRegion = (element) =>
    element.tabIndex >= 0 &&
    (element.hasAttribute('aria-label') || element.hasAttribute('aria-labelledby'));
  const hiddenByClip = (style) =>
    style.clip === 'rect(0px, 0px, 0px, 0px)' ||
    style.clipPath === 'inset(50%)' ||
    style.clipPath === 'inset(100%)';
  const interactive = (element) =>
    element.matches('a[href], button, input, select, textarea, summary, [tabindex]');
  const describe = (element) => {
    const tag = element.tagName.toLowerCase();
    const role = element.getAttribute('role');
    const label =
      element.getAttribute('aria-label') ?? (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    const name = label.length > 60 ? `${label.slice(0, 57)}...` : label;
    return `<${tag}${role ? ` role=${role}` : ''}>${name ? ` "${name}"` : ''}`;
  };

  /**
   * Where the element can be seen on the right: up to the window, or up to the nearest
   * ancestor that clips what overflows it (`cutter`, null for the window); null when an
   * ancestor hides it altogether.
   */
  const visibleBounds = (element) => {
    let left = 0;
    let right = windowWidth;
    let cutter = null;
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      const style = getComputedStyle(parent);
      if (hiddenByClip(style)) return null;
      if (style.overflowX === 'visible') continue;
      const box = parent.getBoundingClientRect();
      const clipLeft = box.left + parent.clientLeft;
      const clipRight = clipLeft + parent.clientWidth;
      if (clipRight < right) {
        right = clipRight;
        cutter = parent;
      }
      left = Math.max(left, clipLeft);
    }
    return { left, right, cutter };
  };

  const reported = [];
  for (const element of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(element);
    if (!element.checkVisibility({ visibilityProperty: true }) || hiddenByClip(style)) continue;
    const box = element.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;
    const bounds = visibleBounds(element);
    // Clipped to nothing: nobody sees it, whatever its size.
    if (!bounds || box.left >= bounds.right || box.right <= bounds.left) continue;
    if (box.right <= bounds.right + SLACK) continue;
    const { cutter } = bounds;
    // Cut on purpose (an ellipsis, a clipped picture), or inside a scroll area a keyboard
    // can scroll: the person sees or reaches the rest.
    if (cutter && !scrollsSideways(cutter, getComputedStyle(cutter))) continue;
    if (cutter && keyboardRegion(cutter)) continue;
    const inside = reported.some((outer) => outer.contains(element));
    if (inside && !interactive(element)) continue;
    reported.push(element);
    const where = cutter
      ? `cut at ${Math.round(bounds.right)} px by a scroll area no keyboard can scroll (${describe(cutter).slice(0, 40)})`
      : `past the ${windowWidth} px window`;
    lines.push(
      `${describe(element)}: ${Math.round(box.left)}-${Math.round(box.right)} px, ${where}`,
    );
  }
  return lines;
}

/** What overflows the window on the screen on `page`, as readable lines. */
export async function fitProblems(page, { path, shown, language, size }) {
  const overflows = await page.evaluate(overflowsInPage);
  return overflows.length === 0
    ? []
    : [
        `${overflows.length} overflows on ${path} (${language}, ${size.width} px, shown at ${shown}):\n${overflows.join('\n')}`,
      ];
}
