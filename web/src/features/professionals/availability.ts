/**
 * The ends a professional picks for a pause or an on-call window in one tap, computed in the
 * professional's own time zone (their home base's, `ProfessionalProfile.time_zone`): "until
 * tomorrow 8:00" is 8:00 there, wherever the phone is. The server bounds them
 * (AccountsService.SetProfessionalAvailability: a pause within 90 days, on call within 24
 * hours).
 */

/** The hours a professional may be on call for in one tap (the server allows up to 24). */
export const ON_CALL_HOURS = [2, 4, 8, 12, 24] as const;

/** The hour a pause ends on its last day, in the professional's time zone. */
export const PAUSE_ENDS_AT_HOUR = 8;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** ISO day of the week, Monday 1 to Sunday 7. */
  isoDay: number;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** What a clock in `timeZone` shows at `at`. */
function wallClock(at: Date, timeZone: string): WallClock {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    weekday: 'short',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: Number(part('year')),
    month: Number(part('month')),
    day: Number(part('day')),
    hour: Number(part('hour')),
    minute: Number(part('minute')),
    isoDay: WEEKDAYS.indexOf(part('weekday')) + 1,
  };
}

/**
 * The instant a clock in `timeZone` shows `hour`:00 on the day `daysAhead` after the one it
 * shows at `now`. Across a change of offset (daylight saving) the offset of the result is the
 * one that holds then.
 */
export function atHourInZone(now: Date, timeZone: string, daysAhead: number, hour: number): Date {
  const today = wallClock(now, timeZone);
  const wanted = Date.UTC(today.year, today.month - 1, today.day + daysAhead, hour, 0);
  let guess = wanted;
  // Two rounds settle the offset, also when the guess fell on the other side of a change.
  for (let round = 0; round < 2; round += 1) {
    const shown = wallClock(new Date(guess), timeZone);
    const shownAsUtc = Date.UTC(shown.year, shown.month - 1, shown.day, shown.hour, shown.minute);
    guess += wanted - shownAsUtc;
  }
  return new Date(guess);
}

/** Tomorrow at 8:00 in the professional's time zone. */
export function tomorrowMorning(now: Date, timeZone: string): Date {
  return atHourInZone(now, timeZone, 1, PAUSE_ENDS_AT_HOUR);
}

/** The next Monday at 8:00 in the professional's time zone (a week ahead on a Monday). */
export function nextMondayMorning(now: Date, timeZone: string): Date {
  const daysAhead = 8 - wallClock(now, timeZone).isoDay;
  return atHourInZone(now, timeZone, daysAhead, PAUSE_ENDS_AT_HOUR);
}

/** The browser's zone, for a professional whose home base gave none yet. */
export function zoneOr(timeZone: string | undefined): string {
  return timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone;
}
