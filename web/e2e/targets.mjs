// The size of what a finger presses: every visible target of the page (a link, a button, a
// radio or checkbox through its label, a select, a summary, a menu item, a tab) must be at
// least 44 x 44 CSS pixels. A link inside running text (a sentence or a paragraph) is the one
// exception: it is as tall as its line, and the text around it keeps the next target away.

/** The smallest width and height of a target, in CSS pixels. */
export const MIN_TARGET = 44;

/**
 * The visible targets smaller than `minimum` in either direction on the open page, or inside
 * the element `within` selects (run in the page): one readable line each,
 * `<tag role href> "name" (how it is measured): W x H px`.
 */
function smallTargetsInPage({ minimum, within }) {
  const { document, getComputedStyle } = globalThis;
  /** A fraction of a pixel is layout rounding, not a smaller target. */
  const ROUNDING = 0.5;
  const TARGETS = [
    'a[href]',
    'button',
    '[role="button"]',
    'input[type="radio"]',
    'input[type="checkbox"]',
    'select',
    'summary',
    '[role="menuitem"]',
    '[role="menuitemradio"]',
    '[role="menuitemcheckbox"]',
    '[role="tab"]',
  ].join(', ');

  const clipped = (style) =>
    style.clip === 'rect(0px, 0px, 0px, 0px)' ||
    style.clipPath === 'inset(50%)' ||
    style.clipPath === 'inset(100%)';
  /** Shown to nobody: not rendered, transparent, or clipped to nothing (for screen readers). */
  const unseen = (element) => {
    if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return true;
    for (let node = element; node; node = node.parentElement) {
      if (clipped(getComputedStyle(node))) return true;
    }
    const box = element.getBoundingClientRect();
    return box.width <= 1 || box.height <= 1;
  };
  const squash = (text) => (text ?? '').replace(/\s+/g, ' ').trim();
  /** An element's text, its pieces apart ("Menu 1", not "Menu1", for a badge). */
  const spacedText = (element) => {
    const walker = document.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
    const pieces = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      pieces.push(node.textContent);
    }
    return squash(pieces.join(' '));
  };
  const nameOf = (element) => {
    const labelled = element.getAttribute('aria-labelledby');
    const byId = labelled
      ? labelled
          .split(/\s+/)
          .map((id) => squash(document.getElementById(id)?.textContent))
          .join(' ')
      : '';
    const name =
      squash(element.getAttribute('aria-label')) ||
      squash(byId) ||
      (element.labels?.[0] ? spacedText(element.labels[0]) : '') ||
      spacedText(element) ||
      squash(element.getAttribute('title')) ||
      squash(element.querySelector('img')?.getAttribute('alt'));
    return name.length > 60 ? `${name.slice(0, 57)}...` : name;
  };
  const describe = (element) => {
    const tag = element.tagName.toLowerCase();
    const type = tag === 'input' ? ` type=${element.type}` : '';
    const role = element.getAttribute('role');
    const href = tag === 'a' ? ` href=${element.getAttribute('href')}` : '';
    return `<${tag}${type}${role ? ` role=${role}` : ''}${href}> "${nameOf(element)}"`;
  };
  /** Laid out in a line of text: inline, or inline-block / inline-flex (a styled link). */
  const isInline = (style) => style.display.startsWith('inline');
  /** The nearest ancestor laid out as a block (what holds the line the link is on). */
  const blockAround = (element) => {
    for (let node = element.parentElement; node; node = node.parentElement) {
      const { display } = getComputedStyle(node);
      if (!display.startsWith('inline') && display !== 'contents') return node;
    }
    return document.body;
  };
  /** The text of a block's own lines: its text and its inline elements', not its blocks'. */
  const lineText = (block) =>
    [...block.childNodes]
      .map((child) => {
        if (child.nodeType === 3 /* Node.TEXT_NODE */) return child.textContent;
        if (child.nodeType !== 1 /* Node.ELEMENT_NODE */) return '';
        const { display } = getComputedStyle(child);
        return display.startsWith('inline') || display === 'contents' ? child.textContent : '';
      })
      .join('');
  /** A link in a sentence: in a line of text, with words before or after it on its lines. */
  const inRunningText = (element) => {
    if (element.tagName !== 'A' || !isInline(getComputedStyle(element))) return false;
    const around = squash(lineText(blockAround(element)));
    const own = squash(element.textContent);
    return /\p{L}{2}/u.test(around.replace(own, ''));
  };

  const lines = [];
  const measured = new Set();
  const root = within ? document.querySelector(within) : document.body;
  for (const element of root?.querySelectorAll(TARGETS) ?? []) {
    // A radio or a checkbox is pressed through its label (the drawn control covers the input).
    const choice = element.matches('input[type="radio"], input[type="checkbox"]');
    const label = choice ? (element.labels?.[0] ?? element.closest('label')) : null;
    const target = label ?? element;
    if (measured.has(target)) continue;
    measured.add(target);
    if (unseen(target) || inRunningText(target)) continue;
    const box = target.getBoundingClientRect();
    if (box.width + ROUNDING >= minimum && box.height + ROUNDING >= minimum) continue;
    const how = label ? ' (its label)' : '';
    const size = `${Math.round(box.width * 10) / 10} x ${Math.round(box.height * 10) / 10} px`;
    lines.push(`${describe(element)}${how}: ${size}`);
  }
  return lines;
}

/**
 * The visible targets on `page` smaller than 44 x 44 px, as readable descriptions (an empty
 * list when every one is large enough). Links within running text are left out. `within` (a
 * CSS selector) measures only what is inside its first match: an open dialog, which hides
 * the page behind it.
 */
export async function smallTargets(page, { within } = {}) {
  return page.evaluate(smallTargetsInPage, { minimum: MIN_TARGET, within });
}
