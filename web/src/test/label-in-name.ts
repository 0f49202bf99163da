import { expect } from 'vitest';

/**
 * WCAG 2.5.3 (Label in Name): a control's accessible name holds the words it shows, so a
 * person who says what they see (voice control) reaches it. `element` carries an aria-label
 * that says more than its text.
 */
export function expectLabelInName(element: HTMLElement) {
  const shown = (element.textContent ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
  const name = (element.getAttribute('aria-label') ?? '').toLowerCase();
  expect(shown).not.toBe('');
  expect(name).toContain(shown);
}
