/**
 * The fixed choices of the professional profile: experience and weekdays, each with its
 * catalogue key, in the order the form lists them; and the profile's bounds. Provinces and
 * postal codes, which requests use too, are in src/lib/address.ts.
 */
import { Experience, Weekday } from '@/gen/repairs/accounts/v1/accounts_pb';
import type { TranslationKey } from '@/lib/translation-key';

export const EXPERIENCES = [
  { value: Experience.EXPERIENCE_UNDER_5, key: 'fields.experience.under5' },
  { value: Experience.EXPERIENCE_5, key: 'fields.experience.five' },
  { value: Experience.EXPERIENCE_5_TO_10, key: 'fields.experience.fiveToTen' },
  { value: Experience.EXPERIENCE_10_TO_15, key: 'fields.experience.tenToFifteen' },
  { value: Experience.EXPERIENCE_15_TO_20, key: 'fields.experience.fifteenToTwenty' },
  { value: Experience.EXPERIENCE_OVER_20, key: 'fields.experience.over20' },
] as const satisfies readonly { value: Experience; key: TranslationKey }[];

export function experienceKey(value: Experience): TranslationKey | null {
  return EXPERIENCES.find((choice) => choice.value === value)?.key ?? null;
}

export const WEEKDAYS = [
  { value: Weekday.MONDAY, key: 'fields.weekdays.monday' },
  { value: Weekday.TUESDAY, key: 'fields.weekdays.tuesday' },
  { value: Weekday.WEDNESDAY, key: 'fields.weekdays.wednesday' },
  { value: Weekday.THURSDAY, key: 'fields.weekdays.thursday' },
  { value: Weekday.FRIDAY, key: 'fields.weekdays.friday' },
  { value: Weekday.SATURDAY, key: 'fields.weekdays.saturday' },
  { value: Weekday.SUNDAY, key: 'fields.weekdays.sunday' },
] as const satisfies readonly { value: Weekday; key: TranslationKey }[];

export function weekdayKey(value: Weekday): TranslationKey | null {
  return WEEKDAYS.find((day) => day.value === value)?.key ?? null;
}

/** Working hours when the professional gives none. */
export const DEFAULT_HOURS = { from: '00:00', to: '23:59' } as const;

export const RADIUS_KM = { min: 1, max: 500 } as const;
export const MAX_FEE_CENTS = 10_000_000n;
export const MAX_LICENCES = 11;
