import { act } from '@testing-library/react';
import { vi } from 'vitest';

/** The codes of a GeolocationPositionError. */
export const PERMISSION_DENIED = 1;
export const POSITION_UNAVAILABLE = 2;

/** The id the fake's watchPosition answers. */
export const WATCH_ID = 7;

/**
 * A stand-in for `navigator.geolocation`: the test moves the phone (`move`) or makes the watch
 * fail (`fail` with a code); `calls` are its spies; `install` puts it on `navigator`.
 */
export function fakeGeolocation() {
  let onPosition: PositionCallback | null = null;
  let onError: PositionErrorCallback | null = null;
  const calls = {
    watchPosition: vi.fn((success: PositionCallback, failure?: PositionErrorCallback | null) => {
      onPosition = success;
      onError = failure ?? null;
      return WATCH_ID;
    }),
    clearWatch: vi.fn(),
    getCurrentPosition: vi.fn(),
  };
  const geolocation = calls as unknown as Geolocation;
  const move = (latitude: number, longitude: number, accuracy = 15) =>
    act(() =>
      onPosition?.({
        coords: { latitude, longitude, accuracy },
        timestamp: Date.now(),
      } as GeolocationPosition),
    );
  const fail = (code: number) =>
    act(() =>
      onError?.({
        code,
        message: '',
        PERMISSION_DENIED,
        POSITION_UNAVAILABLE,
        TIMEOUT: 3,
      } as GeolocationPositionError),
    );
  const install = () =>
    Object.defineProperty(navigator, 'geolocation', { value: geolocation, configurable: true });
  return { geolocation, calls, move, fail, install };
}
