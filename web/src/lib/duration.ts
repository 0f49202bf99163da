import { CreateQuoteRequestSchema } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { bound, limitOf } from './contract-limits';
import { LOCALES, type Language } from './language';

/** A quote's estimate in minutes: CreateQuoteRequest.estimated_minutes' `gte` and `lte`. */
const ESTIMATE = limitOf(CreateQuoteRequestSchema, 'estimatedMinutes');
const MIN_ESTIMATE_MINUTES = bound(ESTIMATE.min, 'shortest estimate');
const MAX_ESTIMATE_MINUTES = bound(ESTIMATE.max, 'longest estimate');
/** The longest estimate a quote may give, in hours (30 days). */
export const MAX_ESTIMATE_HOURS = MAX_ESTIMATE_MINUTES / 60;

const HOURS = /^\d{1,3}([.,]\d{1,2})?$/;

/**
 * An estimate typed in hours ("2", "1.5" or "1,5" in French) as whole minutes, the unit of
 * the contracts' `estimated_minutes`; null when it is not a number of hours within the
 * contract's bounds (one minute to 30 days).
 */
export function parseHours(text: string): number | null {
  const clean = text.trim().replace(',', '.');
  if (!HOURS.test(clean)) return null;
  const minutes = Math.round(Number(clean) * 60);
  return minutes >= MIN_ESTIMATE_MINUTES && minutes <= MAX_ESTIMATE_MINUTES ? minutes : null;
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
