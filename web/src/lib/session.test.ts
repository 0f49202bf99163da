import { describe, expect, it } from 'vitest';
import { TEST_SESSION_SECONDS, fakeToken } from '@/test/render-app';
import {
  chosenRole,
  AFTER_LOGOUT_PATHS,
  LOGOUT_PATHS,
  PROFESSIONAL_STATUS_PATHS,
  SESSION_KEYS,
  SIGN_IN_PATHS,
  activeSessions,
  checkSession,
  decodeTokenClaims,
  endSession,
  guardRedirect,
  homePath,
  isAwaitingReview,
  parseProfessionalStatus,
  professionalLandingRedirect,
  readProfessionalStatus,
  sessionEndsAt,
  signedInRedirect,
  startSession,
  type Role,
} from './session';
import { createMemoryStore } from './storage';

/** 2026-01-01T00:00:00Z, in seconds. */
const NOW = 1_767_225_600;

const clockAt = (seconds: number) => () => seconds * 1000;

function envWith(values: Record<string, string>, nowSeconds = NOW) {
  return { store: createMemoryStore(values), now: clockAt(nowSeconds) };
}

const tokenFor = (role: string, issuedSecondsAgo: number, extra: Record<string, unknown> = {}) =>
  fakeToken({ sub: 'account-1', role, iat: NOW - issuedSecondsAgo, ...extra });

describe('decodeTokenClaims', () => {
  it('reads sub, role, iat and exp without verifying the signature', () => {
    const token = fakeToken({ sub: 'a1', role: 'admin', iat: 10, exp: 20 });
    expect(decodeTokenClaims(token)).toEqual({ sub: 'a1', role: 'admin', iat: 10, exp: 20 });
  });

  it('decodes base64url payloads holding UTF-8 text', () => {
    const token = fakeToken({ sub: 'élève-ü', note: '?>?>' });
    expect(decodeTokenClaims(token)?.sub).toBe('élève-ü');
  });

  it.each([
    ['an empty string', ''],
    ['two segments', 'a.b'],
    ['a payload that is not base64 JSON', 'a.%%%.c'],
    ['a payload that is JSON but not an object', `a.${btoa('42')}.c`],
    ['no subject', fakeToken({ role: 'user', iat: 1 })],
    ['a numeric subject', fakeToken({ sub: 7 })],
    ['a text iat', fakeToken({ sub: 'a', iat: 'yesterday' })],
    ['a numeric role', fakeToken({ sub: 'a', role: 3 })],
  ])('rejects %s', (_label, token) => {
    expect(decodeTokenClaims(token)).toBeNull();
  });
});

describe('checkSession', () => {
  it('is signed out when the role has no token, even if another role has one', () => {
    const env = envWith({ [SESSION_KEYS.professional.token]: tokenFor('professional', 10) });
    expect(checkSession('customer', env)).toEqual({ status: 'signed-out' });
  });

  it.each<[Role, string, string]>([
    ['customer', 'token', 'user'],
    ['customer', 'token', 'customer'],
    ['professional', 'professional-token', 'professional'],
    ['admin', 'admin_token', 'admin'],
  ])('accepts a fresh %s token stored under "%s" (role claim %s)', (role, key, claim) => {
    const token = tokenFor(claim, 60);
    const check = checkSession(role, envWith({ [key]: token }));
    expect(check).toMatchObject({ status: 'active', token, claims: { sub: 'account-1' } });
  });

  it('accepts a token without a role claim (the stored key decides the role)', () => {
    const token = fakeToken({ sub: 'a', iat: NOW });
    expect(checkSession('customer', envWith({ token })).status).toBe('active');
  });

  it.each<Role>(['customer', 'professional'])(
    'keeps a %s session until the exp the server gave it and expires it at exp',
    (role) => {
      const store = { [SESSION_KEYS[role].token]: tokenFor(role, 0) };
      const exp = NOW + TEST_SESSION_SECONDS;
      expect(checkSession(role, envWith(store, exp - 1)).status).toBe('active');
      expect(checkSession(role, envWith(store, exp)).status).toBe('expired');
    },
  );

  it.each<Role>(['customer', 'professional'])(
    'keeps a %s session of a server whose sessions last 2 hours past the first hour',
    (role) => {
      const store = { [SESSION_KEYS[role].token]: tokenFor(role, 0, { exp: NOW + 7200 }) };
      expect(checkSession(role, envWith(store, NOW + 3601)).status).toBe('active');
      expect(checkSession(role, envWith(store, NOW + 7199)).status).toBe('active');
      expect(checkSession(role, envWith(store, NOW + 7200)).status).toBe('expired');
    },
  );

  it('keeps an admin token without exp, however old', () => {
    const env = envWith({ admin_token: tokenFor('admin', 10 * 24 * 3600, { exp: undefined }) });
    expect(checkSession('admin', env).status).toBe('active');
  });

  it.each<Role>(['customer', 'professional', 'admin'])('respects exp for %s tokens', (role) => {
    const store = { [SESSION_KEYS[role].token]: tokenFor(role, 0, { exp: NOW + 600 }) };
    expect(checkSession(role, envWith(store, NOW + 599)).status).toBe('active');
    expect(checkSession(role, envWith(store, NOW + 600)).status).toBe('expired');
  });

  it.each<Role>(['customer', 'professional'])(
    'counts a %s token without exp as expired: nothing says when it ends',
    (role) => {
      const store = { [SESSION_KEYS[role].token]: tokenFor(role, 0, { exp: undefined }) };
      expect(checkSession(role, envWith(store)).status).toBe('expired');
    },
  );

  it('counts a garbage token as expired, so that logout clears it', () => {
    expect(checkSession('customer', envWith({ token: 'not-a-jwt' })).status).toBe('expired');
  });

  it("counts another role's token stored under this role's key as expired", () => {
    const env = envWith({ admin_token: tokenFor('user', 0) });
    expect(checkSession('admin', env).status).toBe('expired');
  });

  it('tells when an active session ends: at its exp', () => {
    const env = envWith({ token: tokenFor('user', 100, { exp: NOW + 7200 }) });
    const check = checkSession('customer', env);
    expect(check.status === 'active' && check.endsAt).toBe(NOW + 7200);
  });
});

describe('sessionEndsAt', () => {
  it('is exp for customers and professionals, however long the server made it', () => {
    expect(sessionEndsAt('customer', { sub: 'a', iat: 0, exp: 100 })).toBe(100);
    expect(sessionEndsAt('professional', { sub: 'a', iat: 0, exp: 99_999 })).toBe(99_999);
  });

  it('is already past for customers and professionals without exp', () => {
    expect(sessionEndsAt('customer', { sub: 'a', iat: 0 })).toBe(-Infinity);
    expect(sessionEndsAt('professional', { sub: 'a' })).toBe(-Infinity);
  });

  it('is exp, or never, for admins', () => {
    expect(sessionEndsAt('admin', { sub: 'a', iat: 0, exp: 99_999 })).toBe(99_999);
    expect(sessionEndsAt('admin', { sub: 'a', iat: 0 })).toBe(Infinity);
  });
});

describe('guardRedirect', () => {
  it.each<[Role, string, string]>([
    ['customer', '/login', '/user-logout'],
    ['professional', '/login-as-professional', '/professional-logout'],
    ['admin', '/admin', '/admin/logout'],
  ])('sends a %s to %s when signed out and to %s when expired', (role, signIn, logout) => {
    expect(guardRedirect(role, { status: 'signed-out' })).toBe(signIn);
    expect(guardRedirect(role, { status: 'expired', reason: 'SESSION_EXPIRED' })).toBe(logout);
    expect(SIGN_IN_PATHS[role]).toBe(signIn);
    expect(LOGOUT_PATHS[role]).toBe(logout);
  });

  it('lets an active session through', () => {
    const check = checkSession('customer', envWith({ token: tokenFor('user', 0) }));
    expect(guardRedirect('customer', check)).toBeNull();
  });
});

describe('signedInRedirect (sign-in and sign-up pages)', () => {
  it('sends a signed-in customer to /create-request', () => {
    expect(signedInRedirect('customer', envWith({ token: tokenFor('user', 5) }))).toBe(
      '/create-request',
    );
  });

  it('sends a signed-in professional with a saved address to the dashboard', () => {
    const env = envWith({
      'professional-token': tokenFor('professional', 5),
      'professional-address': 'Calgary',
    });
    expect(signedInRedirect('professional', env)).toBe('/professional-dashboard');
  });

  it('sends a signed-in professional without a profile to the profile form', () => {
    const env = envWith({ 'professional-token': tokenFor('professional', 5) });
    expect(signedInRedirect('professional', env)).toBe('/update-professional-profile');
  });

  it('sends a signed-in admin to the professionals list', () => {
    expect(signedInRedirect('admin', envWith({ admin_token: tokenFor('admin', 5) }))).toBe(
      '/admin/professionals-list',
    );
  });

  it('shows the page to people not signed in, or whose session expired', () => {
    expect(signedInRedirect('customer', envWith({}))).toBeNull();
    const expired = tokenFor('user', TEST_SESSION_SECONDS);
    expect(signedInRedirect('customer', envWith({ token: expired }))).toBeNull();
  });
});

describe('professionalLandingRedirect', () => {
  it('sends a signed-in professional to their area', () => {
    const env = envWith({ 'professional-token': tokenFor('professional', 5) });
    expect(professionalLandingRedirect(env)).toBe('/update-professional-profile');
  });

  it('sends a professional whose session reached its exp through logout', () => {
    const env = envWith({ 'professional-token': tokenFor('professional', TEST_SESSION_SECONDS) });
    expect(professionalLandingRedirect(env)).toBe('/professional-logout');
  });

  it('shows the page to everyone else', () => {
    expect(professionalLandingRedirect(envWith({ token: tokenFor('user', 5) }))).toBeNull();
  });
});

describe('professional status', () => {
  it.each([
    ['0', 'waiting-for-approval'],
    ['1', 'approved'],
    ['2', 'denied'],
    ['3', 'profile-updated'],
    ['waiting-for-approval', 'waiting-for-approval'],
    ['profile-updated', 'profile-updated'],
    ['denied', 'denied'],
    ['7', 'approved'],
    [null, 'approved'],
  ])('reads %s as %s', (stored, status) => {
    expect(parseProfessionalStatus(stored)).toBe(status);
  });

  it('maps each status to its page', () => {
    expect(PROFESSIONAL_STATUS_PATHS).toEqual({
      'waiting-for-approval': '/waiting-for-approval',
      approved: null,
      denied: '/disapproved-professional',
      'profile-updated': '/waiting-for-profile-review',
    });
  });

  it('hides request links only while the profile waits for review', () => {
    expect(isAwaitingReview('waiting-for-approval')).toBe(true);
    expect(isAwaitingReview('profile-updated')).toBe(true);
    expect(isAwaitingReview('approved')).toBe(false);
    expect(isAwaitingReview('denied')).toBe(false);
  });
});

describe('startSession and endSession', () => {
  it("stores a professional's token and details, and removes them all on logout", () => {
    const store = createMemoryStore({ token: 'customer-token', lang: 'fr' });
    startSession(
      'professional',
      { accessToken: 'pro-token', refreshToken: 'pro-refresh', refreshExpiresAt: NOW + 100 },
      {
        name: 'Marie',
        professionalStatus: 'denied',
        denialReason: 'Licence missing',
        address: 'Edmonton',
      },
      { store, now: clockAt(NOW) },
    );
    expect(store.getItem('professional-token')).toBe('pro-token');
    expect(store.getItem('professional-refresh-token')).toBe('pro-refresh');
    expect(store.getItem('professional-name')).toBe('Marie');
    expect(readProfessionalStatus(store)).toBe('denied');
    expect(store.getItem('professional-denial-reason')).toBe('Licence missing');
    expect(homePath('professional', store)).toBe('/professional-dashboard');

    endSession('professional', store);
    for (const key of Object.values(SESSION_KEYS.professional)) {
      expect(store.getItem(key)).toBeNull();
    }
    // Other roles' sessions and the language stay.
    expect(store.getItem('token')).toBe('customer-token');
    expect(store.getItem('lang')).toBe('fr');
  });

  it('replaces the previous session of the same role', () => {
    const store = createMemoryStore({
      'professional-address': 'Old town',
      'professional-refresh-token': 'old-refresh',
    });
    startSession('professional', { accessToken: 'new-token' }, {}, { store, now: clockAt(NOW) });
    expect(store.getItem('professional-address')).toBeNull();
    expect(store.getItem('professional-refresh-token')).toBeNull();
  });

  it('uses the legacy keys of customers and admins', () => {
    const store = createMemoryStore();
    const env = { store, now: clockAt(NOW) };
    startSession('customer', { accessToken: 'c' }, { name: 'Sam' }, env);
    startSession('admin', { accessToken: 'a' }, { name: 'Root' }, env);
    expect(store.getItem('token')).toBe('c');
    expect(store.getItem('username')).toBe('Sam');
    expect(store.getItem('admin_token')).toBe('a');
    expect(store.getItem('admin_name')).toBe('Root');
  });

  it('leaves customers and admins for the home page, professionals for their landing page', () => {
    expect(AFTER_LOGOUT_PATHS).toEqual({
      customer: '/',
      professional: '/professional',
      admin: '/',
    });
  });
});

describe('activeSessions', () => {
  it('lists the roles signed in with a valid token and their stored names', () => {
    const env = envWith({
      token: tokenFor('user', 60),
      username: 'Casey',
      'professional-token': tokenFor('professional', TEST_SESSION_SECONDS + 5),
      admin_token: tokenFor('admin', 60),
    });
    expect(activeSessions(env)).toEqual([
      { role: 'customer', name: 'Casey' },
      { role: 'admin', name: '' },
    ]);
  });

  it('is empty when nobody is signed in', () => {
    expect(activeSessions(envWith({}))).toEqual([]);
  });
});

describe('chosenRole', () => {
  it('takes the role a link names, else the first signed in, else the customer', () => {
    expect(chosenRole('admin', ['customer', 'admin'])).toBe('admin');
    expect(chosenRole('professional', [])).toBe('professional');
    expect(chosenRole(null, ['professional', 'admin'])).toBe('professional');
    expect(chosenRole('someone', ['admin'])).toBe('admin');
    expect(chosenRole(null, [])).toBe('customer');
  });
});
