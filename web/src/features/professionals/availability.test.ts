import { describe, expect, it } from 'vitest';
import { atHourInZone, nextMondayMorning, tomorrowMorning } from './availability';

describe('the ends of a pause, in the professional time zone', () => {
  it('is tomorrow 8:00 in Edmonton, whatever the zone of the phone', () => {
    // Friday 27 November 2026, 23:30 in Edmonton (UTC-7): Saturday 06:30 UTC.
    const now = new Date('2026-11-28T06:30:00Z');
    expect(tomorrowMorning(now, 'America/Edmonton').toISOString()).toBe('2026-11-28T15:00:00.000Z');
    expect(tomorrowMorning(now, 'America/Toronto').toISOString()).toBe('2026-11-29T13:00:00.000Z');
  });

  it('is the next Monday 8:00, a week ahead on a Monday', () => {
    // Saturday 28 November 2026, noon in Halifax (UTC-4).
    const saturday = new Date('2026-11-28T16:00:00Z');
    expect(nextMondayMorning(saturday, 'America/Halifax').toISOString()).toBe(
      '2026-11-30T12:00:00.000Z',
    );
    const monday = new Date('2026-11-30T16:00:00Z');
    expect(nextMondayMorning(monday, 'America/Halifax').toISOString()).toBe(
      '2026-12-07T12:00:00.000Z',
    );
  });

  it('takes the offset of the day it ends on across daylight saving', () => {
    // Saturday 7 March 2026 in Vancouver (PST, UTC-8); Sunday 8 March clocks go to PDT (UTC-7).
    const now = new Date('2026-03-07T20:00:00Z');
    expect(atHourInZone(now, 'America/Vancouver', 1, 8).toISOString()).toBe(
      '2026-03-08T15:00:00.000Z',
    );
  });
});
