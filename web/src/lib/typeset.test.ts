import { describe, expect, it } from 'vitest';
import { breakablePhonesAndPostalCodes } from '@/locales/french-typography';
import { keepTogether, typesetName } from './typeset';

describe('keepTogether', () => {
  it.each([
    ['100 7 Ave SW, Calgary, AB T2P 1J9', '100 7 Ave SW, Calgary, AB T2P\u00a01J9'],
    ['Calgary AB t2p 1j9', 'Calgary AB t2p\u00a01j9'],
    ['Call 403-555-0199 after 5', 'Call 403\u2011555\u20110199 after 5'],
    ['(403) 555 0199', '(403)\u00a0555\u00a00199'],
    ['+1 403 555 0199', '+1\u00a0403\u00a0555\u00a00199'],
  ])('holds %j together', (text, held) => {
    expect(keepTogether(text)).toBe(held);
    expect(breakablePhonesAndPostalCodes(keepTogether(text))).toEqual([]);
  });

  it.each(['100 7 Ave SW', 'Suite 1200, 555 Main St', 'ABC 123', 'T2P1J9', '2026-11-23'])(
    'leaves %j as it is',
    (text) => {
      expect(keepTogether(text)).toBe(text);
    },
  );
});

describe('typesetName', () => {
  it.each([
    ['fr', "Services d'extermination", 'Services d’extermination'],
    ['fr', "Réparation d'appareils et l'eau chaude", 'Réparation d’appareils et l’eau chaude'],
    ['fr', 'Services d’électricien', 'Services d’électricien'],
    ['fr', "'Plomberie'", "'Plomberie'"],
    ['en', "Kids' rooms and O'Brien's tiles", "Kids' rooms and O'Brien's tiles"],
  ] as const)('sets the %s name %j as %j', (language, name, set) => {
    expect(typesetName(name, language)).toBe(set);
  });
});
