/** The two country calling codes the product accepts, with the country each stands for. */
export const COUNTRY_CODES = [
  { code: '+1', country: 'CA' },
  { code: '+91', country: 'IN' },
] as const;

export type CountryCode = (typeof COUNTRY_CODES)[number]['code'];

/** An E.164 phone ("+14035550100") as the digits that go into a path ("14035550100"). */
export function phoneDigits(e164: string): string {
  return e164.replace(/\D/g, '');
}

/** Back from path digits: the country code and the national number, or null. */
export function splitPhoneDigits(
  digits: string,
): { countryCode: CountryCode; national: string } | null {
  const clean = digits.replace(/\D/g, '');
  if (clean.length === 12 && clean.startsWith('91')) {
    return { countryCode: '+91', national: clean.slice(2) };
  }
  if (clean.length === 11 && clean.startsWith('1')) {
    return { countryCode: '+1', national: clean.slice(1) };
  }
  return null;
}

/**
 * "14035550100" -> "+1 403 555 0100" for reading, with non-breaking spaces so that a number
 * never wraps; other shapes are shown as "+digits".
 */
export function formatPhone(digitsOrE164: string): string {
  const split = splitPhoneDigits(digitsOrE164);
  if (!split) return digitsOrE164 ? `+${phoneDigits(digitsOrE164)}` : '';
  const n = split.national;
  const parts =
    split.countryCode === '+1'
      ? ['+1', n.slice(0, 3), n.slice(3, 6), n.slice(6)]
      : ['+91', n.slice(0, 5), n.slice(5)];
  return parts.join('\u00a0');
}

/** The code the server accepts: four digits, the first 1 to 9. */
export const PHONE_CODE_PATTERN = /^[1-9]\d{3}$/;
