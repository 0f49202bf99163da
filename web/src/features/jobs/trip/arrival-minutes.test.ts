import { describe, expect, it } from 'vitest';
import { maxArrivalMinutes, quickArrivals, readArrival } from './arrival-minutes';

describe('readArrival', () => {
  it('wants an arrival on an emergency, and none on a request that can wait', () => {
    expect(readArrival('', true)).toEqual({ problem: 'required' });
    expect(readArrival('  ', true)).toEqual({ problem: 'required' });
    expect(readArrival('', false)).toEqual({ minutes: undefined });
  });

  it('reads whole minutes, spaces around', () => {
    expect(readArrival(' 45 ', true)).toEqual({ minutes: 45 });
    expect(readArrival('1', false)).toEqual({ minutes: 1 });
  });

  it('takes at most a day on an emergency, 30 days (the contract’s bound) otherwise', () => {
    expect(maxArrivalMinutes(true)).toBe(1440);
    expect(maxArrivalMinutes(false)).toBe(43_200);
    expect(readArrival('1440', true)).toEqual({ minutes: 1440 });
    expect(readArrival('1441', true)).toEqual({ problem: 'range' });
    expect(readArrival('43200', false)).toEqual({ minutes: 43_200 });
    expect(readArrival('43201', false)).toEqual({ problem: 'range' });
  });

  it('refuses what is not a whole number of minutes', () => {
    for (const text of ['0', '-5', '1.5', '1,5', 'soon', '30 min', '1e3']) {
      expect(readArrival(text, false)).toEqual({ problem: 'range' });
    }
  });

  it('offers quick choices within what each request takes', () => {
    for (const emergency of [true, false]) {
      for (const minutes of quickArrivals(emergency)) {
        expect(readArrival(String(minutes), emergency)).toEqual({ minutes });
      }
    }
  });
});
