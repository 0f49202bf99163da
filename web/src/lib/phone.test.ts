import { describe, expect, it } from 'vitest';
import { formatPhone, phoneDigits, splitPhoneDigits, PHONE_CODE_PATTERN } from './phone';

describe('phone helpers', () => {
  it('goes from E.164 to path digits and back', () => {
    expect(phoneDigits('+14035550100')).toBe('14035550100');
    expect(splitPhoneDigits('14035550100')).toEqual({ countryCode: '+1', national: '4035550100' });
    expect(splitPhoneDigits('919876543210')).toEqual({
      countryCode: '+91',
      national: '9876543210',
    });
    expect(splitPhoneDigits('123')).toBeNull();
  });

  it('formats numbers for reading without letting them wrap', () => {
    expect(formatPhone('+14035550100')).toBe('+1\u00a0403\u00a0555\u00a00100');
    expect(formatPhone('')).toBe('');
  });

  it('accepts four-digit codes whose first digit is 1 to 9', () => {
    expect(PHONE_CODE_PATTERN.test('1234')).toBe(true);
    expect(PHONE_CODE_PATTERN.test('0123')).toBe(false);
    expect(PHONE_CODE_PATTERN.test('123')).toBe(false);
  });
});
