import { CreateQuoteRequestSchema } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { bound, limitOf } from '@/lib/contract-limits';

/** CreateQuoteRequest.arrival_minutes' bounds: from 1 minute to 30 days. */
const ARRIVAL = limitOf(CreateQuoteRequestSchema, 'arrivalMinutes');
export const MIN_ARRIVAL_MINUTES = bound(ARRIVAL.min, 'soonest arrival');
const MAX_ARRIVAL_MINUTES = bound(ARRIVAL.max, 'latest arrival');
/**
 * On an emergency (URGENCY_IMMEDIATE) the arrival is required and at most a day: the
 * contract says so in words (CreateQuoteRequest.arrival_minutes), not in an annotation.
 */
const MAX_EMERGENCY_ARRIVAL_MINUTES = 24 * 60;

/** The latest arrival a quote may promise on a request, an emergency or one that can wait. */
export const maxArrivalMinutes = (emergency: boolean) =>
  emergency ? MAX_EMERGENCY_ARRIVAL_MINUTES : MAX_ARRIVAL_MINUTES;

/** The arrivals offered at a tap: within two hours on an emergency, up to two days otherwise. */
export const quickArrivals = (emergency: boolean): readonly number[] =>
  emergency ? [30, 60, 90, 120] : [120, 480, 1440, 2880];

/**
 * "When can you be there?" as typed, read: the minutes to send (none when left empty on a
 * request that can wait), or what is wrong: `required` (empty on an emergency) or `range` (not
 * a whole number of minutes within the bounds).
 */
export function readArrival(
  text: string,
  emergency: boolean,
): { minutes: number | undefined } | { problem: 'required' | 'range' } {
  const clean = text.trim();
  if (clean === '') return emergency ? { problem: 'required' } : { minutes: undefined };
  if (!/^\d{1,6}$/.test(clean)) return { problem: 'range' };
  const minutes = Number(clean);
  return minutes >= MIN_ARRIVAL_MINUTES && minutes <= maxArrivalMinutes(emergency)
    ? { minutes }
    : { problem: 'range' };
}
