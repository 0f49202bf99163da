import { describe, expect, it } from 'vitest';
import { formatHours, parseHours } from './duration';

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('parseHours', () => {
  it.each([
    ['2', 120],
    ['1.5', 90],
    ['1,5', 90],
    [' 0.25 ', 15],
    ['720', 43200],
  ])('reads %j as %i minutes', (text, minutes) => {
    expect(parseHours(text)).toBe(minutes);
  });

  it.each(['', '0', '0.001', 'abc', '-1', '721', '1.555', '1e3'])('refuses %j', (text) => {
    expect(parseHours(text)).toBeNull();
  });
});

describe('formatHours', () => {
  it('writes minutes as hours in the reader’s language', () => {
    expect(formatHours(90, 'en')).toBe('1.5 hrs');
    expect(plain(formatHours(90, 'fr'))).toBe('1,5 h');
    expect(formatHours(120, 'en')).toBe('2 hrs');
  });
});
