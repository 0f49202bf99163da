/**
 * French typography as the OQLF describes it for Quebec readers, checked on catalogue texts.
 * Where a space must not break we use U+00A0, the no-break space of Intl's fr-CA formats
 * (numbers, money, percentages), so that texts and formatted values look the same:
 * - the typographic apostrophe (d’urgence), never the straight one;
 * - a no-break space before a colon used as punctuation (one followed by a space or ending
 *   the text: "HH:MM" and "08:30" are not punctuation);
 * - nothing before ; ! ? (Quebec usage; France puts a narrow no-break space there);
 * - « and » with a no-break space inside;
 * - a no-break space before %, $ and € after an amount;
 * - figures of four digits or more grouped by three with no-break spaces (5 000, 100 000),
 *   and a decimal comma (30,00), as the fee fields read and show them;
 * - phone numbers and postal codes held together by no-break spaces (T2P 1J9, 514 555 0100):
 *   a line must not end in the middle of one;
 * - day and month names in lower case (lundi, janvier), except as a sentence's first word; a
 *   name alone is a list item (the app joins them: "lundi, mardi"), so it is lower case too;
 * - the first day of a month written 1er (1er janvier).
 */
const NBSP = '\u00a0';
/** The no-break spaces: Intl's fr-CA one, and the narrow one France uses between thousands. */
const NO_BREAK = '\u00a0\u202f';

/** Canadian (514 555 0100, 403-555-0199) and Indian (98765 43210) numbers, postal codes. */
const PHONE_OR_POSTAL_CODE = new RegExp(
  [
    `(?<!\\d)\\d{3}[\\s-]\\d{3}[\\s-]\\d{4}(?!\\d)`,
    `(?<!\\d)\\d{5}\\s\\d{5}(?!\\d)`,
    `(?<![\\p{L}\\d])[A-Z]\\d[A-Z]\\s\\d[A-Z]\\d(?![\\p{L}\\d])`,
  ].join('|'),
  'gu',
);

const DAYS = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'];
const MONTHS = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
];
/** Intl's fr-CA short months ("1 janv. 2026"). */
const SHORT_MONTHS = ['janv.', 'févr.', 'avr.', 'juil.', 'sept.', 'oct.', 'nov.', 'déc.'];
const capitalised = (word: string) => word[0]!.toUpperCase() + word.slice(1);
const CAPITAL_NAME = [...DAYS, ...MONTHS].map(capitalised).join('|');
const ANY_MONTH = [...MONTHS, ...SHORT_MONTHS].map((m) => m.replace('.', '\\.')).join('|');

/**
 * The phone numbers and postal codes of `text` that a line could end inside (a breaking
 * space or a hyphen between their groups). In either language: a line break there misleads.
 */
export function breakablePhonesAndPostalCodes(text: string): string[] {
  return (text.match(PHONE_OR_POSTAL_CODE) ?? []).filter((found) =>
    new RegExp(`[^\\d\\p{L}${NO_BREAK}]`, 'u').test(found),
  );
}

const RULES: [breaks: (text: string) => boolean, problem: string][] = [
  [(text) => text.includes("'"), 'straight apostrophe (use ’)'],
  [
    (text) => new RegExp(`(?<!${NBSP}):(?=\\s|$)`).test(text),
    'colon without a no-break space before it',
  ],
  [(text) => /\s[;!?]/.test(text), 'space before ; ! or ? (none in Quebec usage)'],
  [
    (text) => new RegExp(`«(?!${NBSP})|(?<!${NBSP})»`).test(text),
    '« » without no-break spaces inside',
  ],
  [
    (text) => new RegExp(`(?<=\\S)[^\\S${NBSP}]+[%$€]`).test(text),
    'breaking space before % $ or €',
  ],
  [
    (text) => breakablePhonesAndPostalCodes(text).length > 0,
    'phone number or postal code that can break across lines',
  ],
  [
    (text) => {
      const figures = text.replace(PHONE_OR_POSTAL_CODE, '');
      return (
        /\d{4,}/.test(figures) || new RegExp(`\\d[^\\S${NO_BREAK}]\\d{3}(?!\\d)`).test(figures)
      );
    },
    'figure without no-break spaces between thousands (5 000)',
  ],
  [(text) => /\d\.\d/.test(text), 'decimal point (French writes 30,00)'],
  [
    (text) =>
      new RegExp(
        `^(?:${CAPITAL_NAME})$|(?<!^|[.!?]\\s)(?<!\\p{L})(?:${CAPITAL_NAME})(?!\\p{L})`,
        'u',
      ).test(text),
    'capitalised day or month name (lundi, janvier)',
  ],
  [
    (text) => new RegExp(`(?<!\\d)1[\\s](?:${ANY_MONTH})(?!\\p{L})`, 'iu').test(text),
    'the first of a month without 1er',
  ],
];

/** What breaks the rules above in `text` (empty when nothing does). */
export function frenchTypographyProblems(text: string): string[] {
  return RULES.filter(([breaks]) => breaks(text)).map(([, problem]) => problem);
}
