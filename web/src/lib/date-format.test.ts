import { describe, expect, it } from 'vitest';
import { formatDate } from './date-format';
import type { Language } from './language';

/** Intl puts no-break spaces in French times ("15 h 30"); compare with plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

const at = (iso: string) => new Date(`${iso}Z`);
const MEDIUM = { dateStyle: 'medium', timeZone: 'UTC' } as const;
const LONG = { dateStyle: 'long', timeZone: 'UTC' } as const;
const WITH_TIME = { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' } as const;
const NUMERIC = { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' } as const;

describe('formatDate', () => {
  it.each<[string, Language, Intl.DateTimeFormatOptions, string]>([
    ['2026-01-01T15:30:00', 'fr', LONG, '1er janvier 2026'],
    ['2026-12-01T09:05:00', 'fr', MEDIUM, '1er déc. 2026'],
    ['2026-12-01T09:05:00', 'fr', WITH_TIME, '1er déc. 2026, 09 h 05'],
    ['2026-01-21T00:00:00', 'fr', LONG, '21 janvier 2026'],
    ['2026-01-11T00:00:00', 'fr', MEDIUM, '11 janv. 2026'],
    ['2026-11-23T00:00:00', 'fr', MEDIUM, '23 nov. 2026'],
    ['2026-12-01T00:00:00', 'fr', NUMERIC, '2026-12-01'],
    ['2026-01-01T15:30:00', 'en', LONG, 'January 1, 2026'],
    ['2026-12-01T09:05:00', 'en', WITH_TIME, 'Dec 1, 2026, 9:05 a.m.'],
  ])('writes %s in %s (%o) as %j', (iso, language, options, expected) => {
    expect(plain(formatDate(at(iso), language, options))).toBe(expected);
  });
});
