import { describe, expect, it } from 'vitest';
import { fakeToken } from '@/test/render-app';
import {
  RENEW_BEFORE_SECONDS,
  activeSessions,
  checkSession,
  guardRedirect,
  renewalDue,
  renewalTime,
  signedInAccountId,
  signedInRedirect,
  startSession,
  storeTokens,
} from './session';
import { createMemoryStore } from './storage';

/** 2026-01-01T00:00:00Z, in seconds. */
const NOW = 1_767_225_600;
const HOUR = 3600;
const DAYS_30 = 30 * 24 * HOUR;

const at = (seconds: number) => () => seconds * 1000;

/**
 * A customer session as a sign-in stores it, the server's clock `skew` seconds ahead and its
 * tokens lasting `length` seconds.
 */
function signedInCustomer(skew = 0, length = HOUR) {
  const store = createMemoryStore();
  const serverNow = NOW + skew;
  const accessToken = fakeToken({
    sub: 'c1',
    role: 'customer',
    iat: serverNow,
    exp: serverNow + length,
  });
  startSession(
    'customer',
    {
      accessToken,
      expiresAt: serverNow + length,
      refreshToken: 'refresh-1',
      refreshExpiresAt: serverNow + DAYS_30,
    },
    { name: 'Casey' },
    { store, now: at(NOW) },
  );
  return { store, accessToken };
}

describe('sessions that last', () => {
  it('stores the refresh token beside the access token, under the role’s own keys', () => {
    const { store, accessToken } = signedInCustomer();
    expect(store.getItem('token')).toBe(accessToken);
    expect(store.getItem('refresh-token')).toBe('refresh-1');
    expect(store.getItem('token-ends-at')).toBe(String(NOW + HOUR));
    expect(store.getItem('refresh-ends-at')).toBe(String(NOW + DAYS_30));
  });

  it('reads both ends on this browser’s clock, whatever the server’s clock says', () => {
    // The server's clock is two hours ahead: its token still lives an hour from here.
    const { store } = signedInCustomer(2 * HOUR);
    expect(store.getItem('token-ends-at')).toBe(String(NOW + HOUR));
    const check = checkSession('customer', { store, now: at(NOW + 10) });
    expect(check).toMatchObject({ status: 'active', endsAt: NOW + HOUR });
    expect(check.status === 'active' && check.refreshEndsAt).toBe(NOW + DAYS_30);
  });

  it('renews a minute before the access token ends, not before', () => {
    const { store } = signedInCustomer();
    const before = { store, now: at(NOW + HOUR - RENEW_BEFORE_SECONDS - 1) };
    const due = { store, now: at(NOW + HOUR - RENEW_BEFORE_SECONDS) };
    expect(renewalTime(checkSession('customer', before))).toBe(NOW + HOUR - RENEW_BEFORE_SECONDS);
    expect(renewalDue(checkSession('customer', before), before)).toBe(false);
    expect(renewalDue(checkSession('customer', due), due)).toBe(true);
  });

  it('keeps the length of a server whose tokens last 2 hours, and renews near their end', () => {
    const { store } = signedInCustomer(0, 2 * HOUR);
    const pastAnHour = { store, now: at(NOW + HOUR + 1) };
    expect(checkSession('customer', pastAnHour)).toMatchObject({
      status: 'active',
      endsAt: NOW + 2 * HOUR,
    });
    expect(renewalDue(checkSession('customer', pastAnHour), pastAnHour)).toBe(false);
    expect(renewalTime(checkSession('customer', pastAnHour))).toBe(
      NOW + 2 * HOUR - RENEW_BEFORE_SECONDS,
    );
  });

  it('counts an ended access token with a live refresh token as renewable, not signed out', () => {
    const { store } = signedInCustomer();
    const env = { store, now: at(NOW + 5 * HOUR) };
    const check = checkSession('customer', env);
    expect(check).toMatchObject({ status: 'renewable', refreshEndsAt: NOW + DAYS_30 });
    expect(guardRedirect('customer', check)).toBeNull();
    expect(renewalDue(check, env)).toBe(true);
    // The screens still know whose session it is, and the header still names them.
    expect(signedInAccountId('customer', env)).toBe('c1');
    expect(activeSessions(env)).toEqual([{ role: 'customer', name: 'Casey' }]);
    expect(signedInRedirect('customer', env)).toBe('/create-request');
  });

  it('ends the session with the sign-in: 30 days later it is over, as too old', () => {
    const { store } = signedInCustomer();
    const check = checkSession('customer', { store, now: at(NOW + DAYS_30) });
    expect(check).toEqual({ status: 'expired', reason: 'SESSION_TOO_OLD' });
    expect(guardRedirect('customer', check)).toBe('/user-logout');
  });

  it('never renews an admin’s token that ends with the sign-in', () => {
    const store = createMemoryStore();
    const accessToken = fakeToken({ sub: 'a1', role: 'admin', iat: NOW, exp: NOW + 8 * HOUR });
    startSession(
      'admin',
      {
        accessToken,
        expiresAt: NOW + 8 * HOUR,
        refreshToken: 'r',
        refreshExpiresAt: NOW + 8 * HOUR,
      },
      {},
      { store, now: at(NOW) },
    );
    const check = checkSession('admin', { store, now: at(NOW + 8 * HOUR - 30) });
    expect(check.status).toBe('active');
    expect(renewalTime(check)).toBeNull();
  });

  it('ends a session stored without a refresh token at its token’s exp', () => {
    const token = fakeToken({ sub: 'c1', role: 'user', iat: NOW, exp: NOW + 2 * HOUR });
    const store = createMemoryStore({ token });
    expect(renewalTime(checkSession('customer', { store, now: at(NOW) }))).toBeNull();
    expect(checkSession('customer', { store, now: at(NOW + 2 * HOUR - 1) }).status).toBe('active');
    expect(checkSession('customer', { store, now: at(NOW + 2 * HOUR) })).toEqual({
      status: 'expired',
      reason: 'SESSION_EXPIRED',
    });
  });

  it('replaces the tokens of a renewal and keeps what the session knows of the account', () => {
    const { store } = signedInCustomer();
    const renewed = fakeToken({ sub: 'c1', role: 'customer', iat: NOW + HOUR });
    storeTokens(
      'customer',
      {
        accessToken: renewed,
        expiresAt: NOW + 2 * HOUR,
        refreshToken: 'refresh-2',
        refreshExpiresAt: NOW + DAYS_30,
      },
      { store, now: at(NOW + HOUR) },
    );
    expect(store.getItem('token')).toBe(renewed);
    expect(store.getItem('refresh-token')).toBe('refresh-2');
    expect(store.getItem('username')).toBe('Casey');
    expect(checkSession('customer', { store, now: at(NOW + HOUR + 5) }).status).toBe('active');
  });
});
