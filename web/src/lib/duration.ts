import { LOCALES, type Language } from './language';

/** The longest estimate a quote may give: 30 days, in hours (the server's bound in minutes). */
export const MAX_ESTIMATE_HOURS = 720;

const HOURS = /^\d{1,3}([.,]\d{1,2})?$/;

/**
 * An estimate typed in hours ("2", "1.5" or "1,5" in French) as whole minutes, the unit of
 * the contracts' `estimated_minutes`; null when it is not a number of hours from one minute
 * to 30 days.
 */
export function parseHours(text: string): number | null {
  const clean = text.trim().replace(',', '.');
  if (!HOURS.test(clean)) return null;
  const minutes = Math.round(Number(clean) * 60);
  return minutes >= 1 && minutes <= MAX_ESTIMATE_HOURS * 60 ? minutes : null;
}

/** Minutes as hours in a language: 90 is "1.5 hrs" in English, "1,5 h" in French. */
export function formatHours(minutes: number, language: Language): string {
  return new Intl.NumberFormat(LOCALES[language], {
    style: 'unit',
    unit: 'hour',
    unitDisplay: 'short',
    maximumFractionDigits: 2,
  }).format(minutes / 60);
}
