import { LOCALES, type Language } from './language';

/**
 * A duration in minutes (the contracts' `estimated_minutes`) as hours in a language, as the
 * specs show service times: 90 is "1.5 hours" in English and "1,5 heure" in French.
 */
export function formatHours(minutes: number, language: Language): string {
  return new Intl.NumberFormat(LOCALES[language], {
    style: 'unit',
    unit: 'hour',
    unitDisplay: 'long',
    maximumFractionDigits: 2,
  }).format(minutes / 60);
}
