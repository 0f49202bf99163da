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

/**
 * A calendar day the contract writes as YYYY-MM-DD (a day of supply), as a long date in a
 * language ("December 1, 2026", "1er décembre 2026"), whatever the reader's time zone; the
 * text as sent when it is not such a day.
 */
export function formatDay(day: string, language: Language): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return formatDate(date, language, { dateStyle: 'long', timeZone: 'UTC' });
}

/** The month of `date` in UTC, as the contract writes months: YYYY-MM. */
export const thisMonth = (date: Date) => date.toISOString().slice(0, 7);

/** The month before a YYYY-MM month. */
export function monthBefore(month: string): string {
  const [year = 0, number = 1] = month.split('-').map(Number);
  return number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, '0')}`;
}

/** A YYYY-MM month in words: "November 2026", "novembre 2026". */
export function formatMonth(month: string, language: Language): string {
  const [year = 0, number = 1] = month.split('-').map(Number);
  return formatDate(new Date(Date.UTC(year, number - 1, 1)), language, {
    year: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  });
}

/** The calendar quarter before the one of `date` (UTC), as its first and last days. */
export function lastQuarter(date: Date): { start: string; end: string } {
  const quarterStart = Math.floor(date.getUTCMonth() / 3) * 3;
  const start = new Date(Date.UTC(date.getUTCFullYear(), quarterStart - 3, 1));
  const end = new Date(Date.UTC(date.getUTCFullYear(), quarterStart, 0));
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return { start: day(start), end: day(end) };
}

/** Days from one YYYY-MM-DD day to another, both counted (1 for the same day). */
export function daysBetween(start: string, end: string): number {
  return (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000 + 1;
}
