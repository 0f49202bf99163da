/**
 * French typography as the OQLF describes it for Quebec readers, checked on catalogue texts.
 * Where a space must not break we use U+00A0, the no-break space of Intl's fr-CA formats
 * (numbers, money, percentages), so that texts and formatted values look the same:
 * - the typographic apostrophe (d’urgence), never the straight one;
 * - a no-break space before a colon used as punctuation (one followed by a space or ending
 *   the text: "HH:MM" and "08:30" are not punctuation);
 * - nothing before ; ! ? (Quebec usage; France puts a narrow no-break space there);
 * - « and » with a no-break space inside;
 * - a no-break space before %, $ and € after an amount.
 */
const NBSP = '\u00a0';

const RULES: [pattern: RegExp, problem: string][] = [
  [/'/, 'straight apostrophe (use ’)'],
  [new RegExp(`(?<!${NBSP}):(?=\\s|$)`), 'colon without a no-break space before it'],
  [/\s[;!?]/, 'space before ; ! or ? (none in Quebec usage)'],
  [new RegExp(`«(?!${NBSP})|(?<!${NBSP})»`), '« » without no-break spaces inside'],
  [new RegExp(`(?<=\\S)[^\\S${NBSP}]+[%$€]`), 'breaking space before % $ or €'],
];

/** What breaks the rules above in `text` (empty when nothing does). */
export function frenchTypographyProblems(text: string): string[] {
  return RULES.filter(([pattern]) => pattern.test(text)).map(([, problem]) => problem);
}
