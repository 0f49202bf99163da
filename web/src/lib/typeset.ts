/**
 * Typesetting of texts the catalogues do not hold (names and addresses from the server or
 * from people), so that they read like the catalogue's own, whose typography the catalogue
 * tests check (src/locales/french-typography.ts).
 */
import type { Language } from './language';

const NBSP = '\u00a0';
/** U+2011: a hyphen a line never ends after. Inter has it. */
const NO_BREAK_HYPHEN = '\u2011';

/** Postal codes (T2P 1J9), Canadian phone numbers (403-555-0199, (403) 555 0199, +1 …). */
const HELD_TOGETHER = new RegExp(
  [
    String.raw`(?<![\p{L}\d])[ABCEGHJ-NPRSTVXY]\d[A-Z] \d[A-Z]\d(?![\p{L}\d])`,
    String.raw`(?<![\d+])(?:\+?1[ -])?(?:\(\d{3}\)|\d{3})[ -]\d{3}[ -]\d{4}(?!\d)`,
  ].join('|'),
  'giu',
);

/**
 * `text` with its postal codes and phone numbers held together, so that a line never ends
 * inside one: their spaces become no-break spaces and their hyphens no-break hyphens.
 */
export function keepTogether(text: string): string {
  return text.replace(HELD_TOGETHER, (found) =>
    found.replace(/ /g, NBSP).replace(/-/g, NO_BREAK_HYPHEN),
  );
}

/** A straight apostrophe inside a word: d'extermination, l'eau. */
const STRAIGHT_APOSTROPHE = /(?<=\p{L})'(?=\p{L})/gu;

/**
 * A name (a service's, written by an admin) set as the catalogue sets its French texts: the
 * typographic apostrophe (Services d’extermination). English is left as it is.
 */
export function typesetName(text: string, language: Language): string {
  return language === 'fr' ? text.replace(STRAIGHT_APOSTROPHE, '’') : text;
}
