import { timestampDate, timestampMs } from '@bufbuild/protobuf/wkt';
import type { TFunction } from 'i18next';
import {
  ArrivalEstimateSource,
  QuoteState,
  TripState,
  type Quote,
  type Trip,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { formatDate } from '@/lib/date-format';
import { LOCALES, type Language } from '@/lib/language';

/** Up to this many minutes a wait is said in minutes ("40 min"), beyond in hours (2 h 30). */
const MINUTES_ONLY_UP_TO = 90;

/**
 * A wait of `minutes` (at least one) as the catalogue writes it: "40 min" up to 90 minutes,
 * then hours and minutes: "2 h 30 min" in English, "2 h 30" (and "2 h 05") in French.
 */
export function formatDuration(minutes: number, t: TFunction, language: Language): string {
  const whole = Math.max(1, Math.round(minutes));
  if (whole <= MINUTES_ONLY_UP_TO) return t('arrival.minutes', { minutes: whole });
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  if (rest === 0) return t('arrival.hours', { hours });
  const shown = language === 'fr' ? String(rest).padStart(2, '0') : String(rest);
  return t('arrival.hoursMinutes', { hours, minutes: shown });
}

/** A wait said roughly: "about 40 min", and "less than 1 min" under a minute. */
export function formatWait(minutes: number, t: TFunction, language: Language): string {
  return minutes < 1
    ? t('arrival.lessThanMinute')
    : t('arrival.about', { duration: formatDuration(minutes, t, language) });
}

/** Whole minutes from `now` to `at` (epoch ms), to the nearest; 0 under a minute or past. */
export function minutesLeft(at: number, now: number): number {
  const left = at - now;
  return left < 60_000 ? 0 : Math.round(left / 60_000);
}

/** A time of arrival: the time alone on the same day as `now` (21 h 40), else its date too. */
export function formatArrivalTime(at: Date, now: Date, language: Language): string {
  const sameDay = at.toDateString() === now.toDateString();
  return formatDate(
    at,
    language,
    sameDay ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' },
  );
}

/**
 * What a quote says of the arrival, for the customer: once hired, by when the professional
 * should be there ("Should be there by 21:40"); before, how soon they can be ("Can be there in
 * about 40 min"); null when the professional did not say.
 */
export function quoteArrivalText(
  quote: Quote,
  now: Date,
  t: TFunction,
  language: Language,
): string | null {
  if (quote.state === QuoteState.HIRED && quote.arriveBy) {
    const time = formatArrivalTime(timestampDate(quote.arriveBy), now, language);
    return t('arrival.shouldBeBy', { time });
  }
  if (quote.arrivalMinutes > 0) {
    return t('arrival.canBeThere', { time: formatWait(quote.arrivalMinutes, t, language) });
  }
  return null;
}

/**
 * The trip in one sentence, which changes only when the minutes left do (it is announced to
 * screen readers): "Marc is on the way: about 14 min", "… less than 1 min" when due, "Marc
 * has arrived". `name` is the professional's name when the trip does not carry it.
 */
export function tripHeadline(
  trip: Trip,
  name: string,
  now: number,
  t: TFunction,
  language: Language,
): string {
  const who = trip.professionalName || name;
  if (trip.state === TripState.ARRIVED) return t('arrival.trip.arrived', { name: who });
  if (!trip.estimatedArrivalTime) return t('arrival.trip.onTheWay', { name: who });
  const minutes = minutesLeft(timestampMs(trip.estimatedArrivalTime), now);
  return t('arrival.trip.onTheWayIn', { name: who, time: formatWait(minutes, t, language) });
}

/** A distance by road: "800 m", "6.2 km" ("6,2 km" in French); metres to the nearest ten. */
export function formatDistance(metres: number, language: Language): string {
  const km = metres >= 1000;
  return new Intl.NumberFormat(LOCALES[language], {
    style: 'unit',
    unit: km ? 'kilometer' : 'meter',
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(km ? metres / 1000 : Math.max(10, Math.round(metres / 10) * 10));
}

/** How long a position keeps an estimate live (the server's POSITION_FRESH_FOR). */
export const POSITION_FRESH_MS = 10 * 60_000;

/**
 * Whether a trip's estimate is live at `now`: made from a position less than ten minutes old.
 * The server says so when it reads the trip; between reads, a phone that stopped sending ages
 * the estimate here.
 */
export function isLiveEstimate(trip: Trip, now: number): boolean {
  return (
    trip.estimateSource === ArrivalEstimateSource.POSITION &&
    trip.lastPositionTime !== undefined &&
    now - timestampMs(trip.lastPositionTime) < POSITION_FRESH_MS
  );
}
