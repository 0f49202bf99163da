import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeToken } from '@/test/render-app';
import { Code, rpcError } from '@/test/stub-server';
import { startSession, type IssuedSession, type SessionEnvironment } from './session';
import { withLock } from './session-lock';
import { currentToken, renewSession, type RenewalDependencies } from './session-renewal';
import { createMemoryStore } from './storage';

const NOW = 1_767_225_600;
const HOUR = 3600;

/** A customer signed in at NOW, with refresh token `refresh-1`. */
function signedIn(): SessionEnvironment & { clock: { seconds: number } } {
  const clock = { seconds: NOW };
  const env = { store: createMemoryStore(), now: () => clock.seconds * 1000, clock };
  startSession(
    'customer',
    {
      accessToken: fakeToken({ sub: 'c1', role: 'customer', iat: NOW }),
      expiresAt: NOW + HOUR,
      refreshToken: 'refresh-1',
      refreshExpiresAt: NOW + 30 * 24 * HOUR,
    },
    {},
    env,
  );
  return env;
}

/** A server that renews each refresh token once, as RefreshSession does. */
function refreshServer(env: SessionEnvironment) {
  const spent: string[] = [];
  let issued = 0;
  const refresh = vi.fn(async (token: string): Promise<IssuedSession> => {
    await Promise.resolve();
    if (spent.includes(token)) throw rpcError(Code.Unauthenticated, 'SESSION_REVOKED');
    spent.push(token);
    issued += 1;
    const iat = Math.floor(env.now() / 1000);
    return {
      accessToken: fakeToken({ sub: 'c1', role: 'customer', iat, n: issued }),
      expiresAt: iat + HOUR,
      refreshToken: `refresh-${issued + 1}`,
      refreshExpiresAt: NOW + 30 * 24 * HOUR,
    };
  });
  return { refresh, spent };
}

const deps = (
  env: SessionEnvironment,
  refresh: RenewalDependencies['refresh'],
): RenewalDependencies => ({ env, lock: withLock, refresh });

describe('renewSession', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('does nothing while the token has more than a minute left', async () => {
    const env = signedIn();
    const { refresh } = refreshServer(env);
    const outcome = await renewSession('customer', deps(env, refresh));
    expect(outcome).toEqual({ kind: 'ready', token: env.store.getItem('token') });
    expect(refresh).not.toHaveBeenCalled();
  });

  it('spends each refresh token once when several renewals start together', async () => {
    const env = signedIn();
    env.clock.seconds = NOW + 2 * HOUR;
    const { refresh, spent } = refreshServer(env);
    // Two tabs (their own dependencies, the same storage and lock) and a second call here.
    const tabs = [deps(env, refresh), deps(env, refresh), deps(env, refresh)];
    const outcomes = await Promise.all(tabs.map((tab) => renewSession('customer', tab)));
    expect(refresh).toHaveBeenCalledOnce();
    expect(spent).toEqual(['refresh-1']);
    const token = env.store.getItem('token');
    expect(outcomes).toEqual([0, 1, 2].map(() => ({ kind: 'ready', token })));
    expect(env.store.getItem('refresh-token')).toBe('refresh-2');
  });

  it('uses the token another tab stored meanwhile instead of renewing after a refusal', async () => {
    const env = signedIn();
    const { refresh } = refreshServer(env);
    const outcome = await renewSession('customer', deps(env, refresh), 'an older token');
    expect(outcome).toEqual({ kind: 'ready', token: env.store.getItem('token') });
    expect(refresh).not.toHaveBeenCalled();
  });

  it('renews when the server refused the very token stored, whatever this clock says', async () => {
    const env = signedIn();
    const { refresh } = refreshServer(env);
    const stale = env.store.getItem('token') ?? '';
    const outcome = await renewSession('customer', deps(env, refresh), stale);
    expect(refresh).toHaveBeenCalledExactlyOnceWith('refresh-1');
    expect(outcome.kind === 'ready' && outcome.token).not.toBe(stale);
  });

  it.each(['SESSION_REVOKED', 'SESSION_TOO_OLD', 'SESSION_INVALID'])(
    'ends the session when the renewal is refused with %s',
    async (reason) => {
      const env = signedIn();
      env.clock.seconds = NOW + 2 * HOUR;
      const refresh = () => Promise.reject(rpcError(Code.Unauthenticated, reason));
      expect(await renewSession('customer', deps(env, refresh))).toEqual({
        kind: 'ended',
        reason,
      });
    },
  );

  it('keeps the session when the renewal could not reach the server', async () => {
    const env = signedIn();
    env.clock.seconds = NOW + HOUR - 30;
    const down = rpcError(Code.Unavailable, 'UNAVAILABLE');
    const refresh = () => Promise.reject(down);
    expect(await renewSession('customer', deps(env, refresh))).toEqual({
      kind: 'failed',
      error: down,
    });
    // The token still has 30 seconds: calls go on with it meanwhile.
    expect(await currentToken('customer', deps(env, refresh))).toEqual({
      kind: 'ready',
      token: env.store.getItem('token'),
    });
  });

  it('ends a session whose sign-in is over without asking the server', async () => {
    const env = signedIn();
    env.clock.seconds = NOW + 31 * 24 * HOUR;
    const { refresh } = refreshServer(env);
    expect(await renewSession('customer', deps(env, refresh))).toEqual({
      kind: 'ended',
      reason: 'SESSION_TOO_OLD',
    });
    expect(refresh).not.toHaveBeenCalled();
  });

  it('takes the browser-wide lock when the browser has one', async () => {
    const request = vi.fn((_name: string, task: () => Promise<unknown>) => task());
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    const env = signedIn();
    env.clock.seconds = NOW + 2 * HOUR;
    const { refresh } = refreshServer(env);
    await renewSession('customer', deps(env, refresh));
    expect(request).toHaveBeenCalledWith('repairs-session-renewal:customer', expect.any(Function));
  });
});
