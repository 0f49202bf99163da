/** Canadian addresses as the forms take them: provinces and territories, postal codes. */
import type { Address } from '@/gen/repairs/type/v1/common_pb';
import type { TranslationKey } from './translation-key';
import { keepTogether } from './typeset';

/** Two-letter codes of the provinces and territories (AccountsService accepts these). */
export const PROVINCES = [
  'AB',
  'BC',
  'MB',
  'NB',
  'NL',
  'NS',
  'NT',
  'NU',
  'ON',
  'PE',
  'QC',
  'SK',
  'YT',
] as const;

export type Province = (typeof PROVINCES)[number];

/** The spec's default province. */
export const DEFAULT_PROVINCE: Province = 'AB';

export const provinceKey = (code: string) => `fields.provinces.${code}` as TranslationKey;

/** A Canadian postal code, "A1A 1A1" (the space or a dash optional). */
export const POSTAL_CODE_PATTERN =
  /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ -]?\d[ABCEGHJ-NPRSTV-Z]\d$/i;

/** "t2p1j9" -> "T2P 1J9". */
export function normalisePostalCode(text: string): string {
  const compact = text.replace(/[\s-]/g, '').toUpperCase();
  return compact.length === 6 ? `${compact.slice(0, 3)} ${compact.slice(3)}` : text.trim();
}

/**
 * A street address as read: '225 7 Ave SW, Calgary, AB T2P 2W3', its parts joined by
 * `separator`, the postal code held together so that no line ends inside it.
 */
export function addressText(
  { line1, line2, city, province, postalCode }: Address,
  separator = ', ',
): string {
  return keepTogether(
    [line1, line2, `${city}, ${province} ${postalCode}`.trim()].filter(Boolean).join(separator),
  );
}
