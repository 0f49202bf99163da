import { describe, expect, it } from 'vitest';
import {
  daysBetween,
  formatDate,
  formatDay,
  formatMonth,
  lastQuarter,
  monthBefore,
  thisMonth,
} from './date-format';
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

describe('formatDay', () => {
  it.each<[string, Language, string]>([
    ['2026-12-01', 'fr', '1er décembre 2026'],
    ['2026-12-01', 'en', 'December 1, 2026'],
    ['2025-03-31', 'en', 'March 31, 2025'],
    ['not a day', 'en', 'not a day'],
  ])('writes the day %s in %s as %j, whatever the time zone', (day, language, expected) => {
    expect(plain(formatDay(day, language))).toBe(expected);
  });
});

describe('months', () => {
  it('reads the month of a date in UTC, and the month before one', () => {
    expect(thisMonth(new Date(Date.UTC(2026, 11, 31, 23, 59)))).toBe('2026-12');
    expect(monthBefore('2026-12')).toBe('2026-11');
    expect(monthBefore('2026-01')).toBe('2025-12');
  });

  it.each<[string, Language, string]>([
    ['2026-11', 'en', 'November 2026'],
    ['2026-11', 'fr', 'novembre 2026'],
  ])('writes the month %s in %s as %j', (month, language, expected) => {
    expect(formatMonth(month, language)).toBe(expected);
  });
});

describe('periods', () => {
  it.each([
    [Date.UTC(2026, 11, 2), '2026-07-01', '2026-09-30'],
    [Date.UTC(2026, 0, 15), '2025-10-01', '2025-12-31'],
    [Date.UTC(2026, 3, 1), '2026-01-01', '2026-03-31'],
  ])('takes the quarter before the one of %s', (now, start, end) => {
    expect(lastQuarter(new Date(now))).toEqual({ start, end });
  });

  it('counts the days of a period, both ends included', () => {
    expect(daysBetween('2026-01-01', '2026-01-01')).toBe(1);
    expect(daysBetween('2024-01-01', '2024-12-31')).toBe(366);
    expect(daysBetween('2026-02-01', '2026-01-31')).toBe(0);
  });
});
