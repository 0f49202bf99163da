import { LOCALES, type Language } from './language';

/**
 * `date` in a language with Intl's `options`, as French writes it: the first of a month is
 * "1er" (1er janvier, 1er déc. 2026), which Intl's fr-CA leaves as "1". Numeric dates
 * ("2026-12-01") keep their figures.
 */
export function formatDate(
  date: Date,
  language: Language,
  options: Intl.DateTimeFormatOptions,
): string {
  const parts = new Intl.DateTimeFormat(LOCALES[language], options).formatToParts(date);
  const monthInWords = parts.some((part) => part.type === 'month' && !/^\d+$/.test(part.value));
  const first = language === 'fr' && monthInWords;
  return parts
    .map(({ type, value }) => (first && type === 'day' && Number(value) === 1 ? '1er' : value))
    .join('');
}
