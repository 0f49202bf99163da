/**
 * The fixed choices of the professional profile: experience and weekdays, each with its
 * catalogue key, in the order the form lists them; and the profile's bounds. Provinces and
 * postal codes, which requests use too, are in src/lib/address.ts.
 */
import {
  Experience,
  ProfessionalProfileSchema,
  Weekday,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { bound, limitOf } from '@/lib/contract-limits';
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

/**
 * The service radius in whole km. Its top is ProfessionalProfile.radius_km's `lte`; its
 * bottom is 1 because a radius of 0 km reaches nobody, while the contract allows 0 (`gte: 0`).
 */
export const RADIUS_KM = {
  min: 1,
  max: bound(limitOf(ProfessionalProfileSchema, 'radiusKm').max, 'largest radius'),
} as const;
/**
 * The largest minimum fee, $100,000.00. The contract does not state it: the profile's
 * minimum_fee is a repairs.type.v1.Money, whose `amount_cents` allows up to $1,000,000.00
 * (a quote's bound); the server refuses a profile fee above this one.
 */
export const MAX_FEE_CENTS = 10_000_000n;
/**
 * Licences a profile holds at most. The contract states it only on what an admin may revoke
 * (RefusePendingChangeRequest.revoke_licence_ids' `max_items`), not on AddLicence, so it is
 * written here as the server applies it.
 */
export const MAX_LICENCES = 11;
