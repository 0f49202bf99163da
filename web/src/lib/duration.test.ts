import { describe, expect, it } from 'vitest';
import { formatHours } from './duration';

describe('formatHours', () => {
  it('shows minutes as hours in each language', () => {
    expect(formatHours(90, 'en')).toBe('1.5 hours');
    expect(formatHours(90, 'fr')).toBe('1,5\u00a0heure');
    expect(formatHours(120, 'fr')).toBe('2\u00a0heures');
    expect(formatHours(20, 'en')).toBe('0.33 hours');
  });
});
