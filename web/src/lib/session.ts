/**
 * Browser sessions of the three roles, as the specs describe them.
 *
 * The role is decided by which token is stored (customer `token`, professional
 * `professional-token`, admin `admin_token`). The token is a JWT whose payload is read here
 * without verifying it: the server verifies every call, this module only decides where the
 * browser should go. Beside it a sign-in stores a refresh token, which renews the access
 * token until the sign-in's end (`./session-renewal`), and both ends as this browser's clock
 * reads them (so a clock that is off does not end or renew sessions early). Pure functions:
 * storage and clock are passed in.
 */
import type { KeyValueStore } from './storage';

export const ROLES = ['customer', 'professional', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** How long before the access token ends a renewal starts. */
export const RENEW_BEFORE_SECONDS = 60;

/**
 * localStorage keys of each role's session: the access token (`token`), when it ends by this
 * browser's clock (`tokenEndsAt`, epoch seconds), the refresh token (`refresh`) and the end of
 * the sign-in (`refreshEndsAt`), and what the screens show of the account.
 */
export const SESSION_KEYS = {
  customer: {
    token: 'token',
    tokenEndsAt: 'token-ends-at',
    refresh: 'refresh-token',
    refreshEndsAt: 'refresh-ends-at',
    name: 'username',
  },
  professional: {
    token: 'professional-token',
    tokenEndsAt: 'professional-token-ends-at',
    refresh: 'professional-refresh-token',
    refreshEndsAt: 'professional-refresh-ends-at',
    name: 'professional-name',
    status: 'professional-status',
    denialReason: 'professional-denial-reason',
    address: 'professional-address',
  },
  admin: {
    token: 'admin_token',
    tokenEndsAt: 'admin_token_ends_at',
    refresh: 'admin_refresh_token',
    refreshEndsAt: 'admin_refresh_ends_at',
    name: 'admin_name',
  },
} as const satisfies Record<
  Role,
  {
    token: string;
    tokenEndsAt: string;
    refresh: string;
    refreshEndsAt: string;
    name: string;
    [key: string]: string;
  }
>;

/** Where a person without a session signs in. */
export const SIGN_IN_PATHS: Record<Role, string> = {
  customer: '/login',
  professional: '/login-as-professional',
  admin: '/admin',
};

/** The routes that end a session (they clear the stored values, then leave). */
export const LOGOUT_PATHS: Record<Role, string> = {
  customer: '/user-logout',
  professional: '/professional-logout',
  admin: '/admin/logout',
};

/** The page a signed-in person's name links to from the header: their own account. */
export const ACCOUNT_PATHS: Record<Role, string> = {
  customer: '/user-account-setting',
  professional: '/view-professional-profile',
  admin: '/admin/professionals-list',
};

/** Where each logout route goes once the session is cleared. */
export const AFTER_LOGOUT_PATHS: Record<Role, string> = {
  customer: '/',
  professional: '/professional',
  admin: '/',
};

/** The token's payload, as far as the browser cares. Times are epoch seconds. */
export interface TokenClaims {
  sub: string;
  role?: string;
  iat?: number;
  exp?: number;
}

/** The `role` claim values each role accepts ('user' is the legacy name of a customer). */
const ROLE_CLAIMS: Record<Role, readonly string[]> = {
  customer: ['customer', 'user'],
  professional: ['professional'],
  admin: ['admin'],
};

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
  const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

const isOptionalNumber = (value: unknown) => value === undefined || typeof value === 'number';

/** Reads a JWT's payload without verifying it; null when it is not a well-formed JWT. */
export function decodeTokenClaims(token: string): TokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(decodeBase64Url(parts[1]));
  } catch {
    return null;
  }
  if (typeof payload !== 'object' || payload === null) return null;
  const { sub, role, iat, exp } = payload as Record<string, unknown>;
  if (typeof sub !== 'string' || sub === '') return null;
  if (role !== undefined && typeof role !== 'string') return null;
  if (!isOptionalNumber(iat) || !isOptionalNumber(exp)) return null;
  return { sub, role, iat, exp } as TokenClaims;
}

/**
 * The first moment, in epoch seconds, at which a session counts as expired: the token's `exp`.
 * How long a session lasts is the server's setting, and `exp` is where the server wrote it;
 * the browser has no length of its own. A customer or professional token without `exp` is
 * expired at once (nothing says when it ends); an admin token without `exp` never ends here
 * (Infinity). A sign-in stores the reply's `expire_time` beside the token (`tokenEndsAt`, on
 * this browser's clock), which `checkSession` reads before this.
 */
export function sessionEndsAt(role: Role, claims: TokenClaims): number {
  if (claims.exp !== undefined) return claims.exp;
  return role === 'admin' ? Infinity : -Infinity;
}

/** Why a session ended, as the sign-in page tells it (the server's reasons). */
export type SessionEndReason =
  | 'SESSION_EXPIRED'
  | 'SESSION_INVALID'
  | 'SESSION_REVOKED'
  | 'SESSION_TOO_OLD'
  | 'SIGN_IN_REQUIRED';

export type SessionCheck =
  | { status: 'signed-out' }
  /**
   * Over: expired with nothing to renew it, or a stored value that is not a token of this
   * role. The logout route clears it.
   */
  | { status: 'expired'; reason: SessionEndReason }
  /**
   * The access token has ended but the refresh token is alive: the session goes on once
   * renewed. `claims` are the old token's, when it could be read.
   */
  | { status: 'renewable'; claims: TokenClaims | null; refreshEndsAt: number }
  | {
      status: 'active';
      token: string;
      claims: TokenClaims;
      endsAt: number;
      /** When the sign-in ends for good; null for a session without a refresh token. */
      refreshEndsAt: number | null;
    };

export interface SessionEnvironment {
  store: KeyValueStore;
  /** Current time in milliseconds, like Date.now. */
  now: () => number;
}

const nowSeconds = (env: SessionEnvironment) => Math.floor(env.now() / 1000);

function storedSeconds(store: KeyValueStore, key: string): number | null {
  const value = store.getItem(key);
  const seconds = value === null ? NaN : Number(value);
  return Number.isFinite(seconds) ? seconds : null;
}

/** The claims of a stored token of `role`, or null for a value that is not one. */
function tokenClaimsOf(role: Role, token: string): TokenClaims | null {
  const claims = decodeTokenClaims(token);
  if (!claims) return null;
  if (claims.role !== undefined && !ROLE_CLAIMS[role].includes(claims.role)) return null;
  return claims;
}

/** The refresh token of `role` and the end of its sign-in, while that end is ahead. */
export function liveRefresh(
  role: Role,
  env: SessionEnvironment,
): { token: string; endsAt: number } | null {
  const keys = SESSION_KEYS[role];
  const token = env.store.getItem(keys.refresh);
  const endsAt = storedSeconds(env.store, keys.refreshEndsAt);
  if (!token || endsAt === null || nowSeconds(env) >= endsAt) return null;
  return { token, endsAt };
}

/** The state of a role's stored session at this moment. */
export function checkSession(role: Role, env: SessionEnvironment): SessionCheck {
  const keys = SESSION_KEYS[role];
  const token = env.store.getItem(keys.token);
  const hadRefresh = env.store.getItem(keys.refresh) !== null;
  if (!token && !hadRefresh) return { status: 'signed-out' };
  const refresh = liveRefresh(role, env);
  const claims = token ? tokenClaimsOf(role, token) : null;
  if (token && claims) {
    const endsAt = storedSeconds(env.store, keys.tokenEndsAt) ?? sessionEndsAt(role, claims);
    if (nowSeconds(env) < endsAt) {
      return { status: 'active', token, claims, endsAt, refreshEndsAt: refresh?.endsAt ?? null };
    }
  }
  if (refresh) return { status: 'renewable', claims, refreshEndsAt: refresh.endsAt };
  return { status: 'expired', reason: hadRefresh ? 'SESSION_TOO_OLD' : 'SESSION_EXPIRED' };
}

/**
 * When the session should be renewed (epoch seconds): a little before its access token ends,
 * if the sign-in goes on beyond that, and at once when it has ended already; null when it
 * cannot be renewed (no refresh token, or an admin's token that ends with the sign-in).
 */
export function renewalTime(check: SessionCheck): number | null {
  if (check.status === 'renewable') return -Infinity;
  if (check.status !== 'active' || check.refreshEndsAt === null) return null;
  if (check.refreshEndsAt <= check.endsAt) return null;
  return check.endsAt - RENEW_BEFORE_SECONDS;
}

/** Whether the session should be renewed now, before its next call. */
export function renewalDue(check: SessionCheck, env: SessionEnvironment): boolean {
  const at = renewalTime(check);
  return at !== null && nowSeconds(env) >= at;
}

/** Whether the session may be used, now or once renewed. */
export function isSignedIn(
  check: SessionCheck,
): check is Extract<SessionCheck, { status: 'active' | 'renewable' }> {
  return check.status === 'active' || check.status === 'renewable';
}

/** Where a page reserved to `role` sends the browser, or null when it may show. */
export function guardRedirect(role: Role, check: SessionCheck): string | null {
  switch (check.status) {
    case 'signed-out':
      return SIGN_IN_PATHS[role];
    case 'expired':
      return LOGOUT_PATHS[role];
    case 'renewable':
    case 'active':
      return null;
  }
}

/** Where a professional stands with the admins (legacy numbers 0, 1, 2, 3). */
export type ProfessionalStatus = 'waiting-for-approval' | 'approved' | 'denied' | 'profile-updated';

const LEGACY_PROFESSIONAL_STATUS: Record<string, ProfessionalStatus> = {
  '0': 'waiting-for-approval',
  '1': 'approved',
  '2': 'denied',
  '3': 'profile-updated',
};

/** Reads a stored status; any other value counts as approved, as in the specs. */
export function parseProfessionalStatus(value: string | null): ProfessionalStatus {
  if (value === null) return 'approved';
  const legacy = LEGACY_PROFESSIONAL_STATUS[value];
  if (legacy) return legacy;
  const known: readonly string[] = Object.values(LEGACY_PROFESSIONAL_STATUS);
  return known.includes(value) ? (value as ProfessionalStatus) : 'approved';
}

export function readProfessionalStatus(store: KeyValueStore): ProfessionalStatus {
  return parseProfessionalStatus(store.getItem(SESSION_KEYS.professional.status));
}

/** The page a professional in a status is sent to instead of the work screens. */
export const PROFESSIONAL_STATUS_PATHS: Record<ProfessionalStatus, string | null> = {
  'waiting-for-approval': '/waiting-for-approval',
  approved: null,
  denied: '/disapproved-professional',
  'profile-updated': '/waiting-for-profile-review',
};

/**
 * Whether the request and order links of the professional menu are hidden: while the
 * profile waits for review ('Profile Review Pending!', legacy status 0 or 3).
 */
export function isAwaitingReview(status: ProfessionalStatus): boolean {
  return status === 'waiting-for-approval' || status === 'profile-updated';
}

/** A professional who saved a profile has an address stored; one who did not must fill it in. */
function professionalHome(store: KeyValueStore): string {
  return store.getItem(SESSION_KEYS.professional.address)
    ? '/professional-dashboard'
    : '/update-professional-profile';
}

/** The first page of a signed-in role. */
export function homePath(role: Role, store: KeyValueStore): string {
  switch (role) {
    case 'customer':
      return '/create-request';
    case 'professional':
      return professionalHome(store);
    case 'admin':
      return '/admin/professionals-list';
  }
}

/**
 * On a sign-in or sign-up page of `role`: where a person already signed in as that role goes,
 * or null to show the page.
 */
export function signedInRedirect(role: Role, env: SessionEnvironment): string | null {
  return isSignedIn(checkSession(role, env)) ? homePath(role, env.store) : null;
}

/**
 * On the professional landing page: a signed-in professional goes to the dashboard (or the
 * profile form), one whose session is too old goes through logout; others see the page.
 */
export function professionalLandingRedirect(env: SessionEnvironment): string | null {
  const check = checkSession('professional', env);
  if (isSignedIn(check)) return homePath('professional', env.store);
  if (check.status === 'expired') return LOGOUT_PATHS.professional;
  return null;
}

/** What a sign-in stores besides the token. */
export interface SessionDetails {
  name?: string;
  professionalStatus?: ProfessionalStatus;
  denialReason?: string;
  /** The professional's saved address (empty until the profile is filled in). */
  address?: string;
}

/** A session as the server gives it; times are epoch seconds by the server's clock. */
export interface IssuedSession {
  accessToken: string;
  /** When the access token ends (`Session.expire_time`). */
  expiresAt?: number;
  refreshToken?: string;
  /** When the sign-in ends (`Session.refresh_expires_at`). */
  refreshExpiresAt?: number;
}

/**
 * Stores a session's tokens and their ends, moved onto this browser's clock: the access
 * token's `iat` says what time the server's clock read when it was issued.
 */
export function storeTokens(role: Role, issued: IssuedSession, env: SessionEnvironment): void {
  const { store } = env;
  const keys = SESSION_KEYS[role];
  const issuedAt = decodeTokenClaims(issued.accessToken)?.iat;
  const offset = issuedAt === undefined ? 0 : nowSeconds(env) - issuedAt;
  const keep = (key: string, value: string | undefined) =>
    value === undefined ? store.removeItem(key) : store.setItem(key, value);
  const local = (seconds: number | undefined) =>
    seconds === undefined ? undefined : String(seconds + offset);
  store.setItem(keys.token, issued.accessToken);
  keep(keys.tokenEndsAt, local(issued.expiresAt));
  const refresh = issued.refreshToken ? issued.refreshExpiresAt : undefined;
  keep(keys.refresh, refresh === undefined ? undefined : issued.refreshToken);
  keep(keys.refreshEndsAt, local(refresh));
}

/** Stores a new session of `role`, replacing whatever that role had stored. */
export function startSession(
  role: Role,
  issued: IssuedSession,
  details: SessionDetails,
  env: SessionEnvironment,
): void {
  const { store } = env;
  endSession(role, store);
  const keys = SESSION_KEYS[role];
  storeTokens(role, issued, env);
  if (details.name) store.setItem(keys.name, details.name);
  if (role !== 'professional') return;
  const pro = SESSION_KEYS.professional;
  if (details.professionalStatus) store.setItem(pro.status, details.professionalStatus);
  if (details.denialReason) store.setItem(pro.denialReason, details.denialReason);
  if (details.address) store.setItem(pro.address, details.address);
}

/** Removes everything a role's session stored. Other roles' sessions stay. */
export function endSession(role: Role, store: KeyValueStore): void {
  for (const key of Object.values(SESSION_KEYS[role])) store.removeItem(key);
}

/** A role signed in on this browser and the name its session stored ('' when none). */
export interface ActiveSession {
  role: Role;
  name: string;
}

/** The roles with an active session, in the order of ROLES (a browser may hold several). */
export function activeSessions(env: SessionEnvironment): ActiveSession[] {
  return ROLES.filter((role) => isSignedIn(checkSession(role, env))).map((role) => ({
    role,
    name: env.store.getItem(SESSION_KEYS[role].name) ?? '',
  }));
}

/** The account whose token of `role` is stored, valid or not (the token's subject). */
export function storedAccountId(role: Role, store: KeyValueStore): string | null {
  const token = store.getItem(SESSION_KEYS[role].token);
  return token ? (decodeTokenClaims(token)?.sub ?? null) : null;
}

/** The id of the account signed in as `role` (the token's subject), or null. */
export function signedInAccountId(role: Role, env: SessionEnvironment): string | null {
  const check = checkSession(role, env);
  return isSignedIn(check) ? (check.claims?.sub ?? null) : null;
}

/** Refreshes what a professional's session keeps from the server's latest answer. */
export function refreshProfessionalDetails(details: SessionDetails, store: KeyValueStore): void {
  const pro = SESSION_KEYS.professional;
  const keep = (key: string, value: string | undefined) =>
    value ? store.setItem(key, value) : store.removeItem(key);
  keep(pro.name, details.name);
  keep(pro.status, details.professionalStatus);
  keep(pro.denialReason, details.denialReason);
  keep(pro.address, details.address);
}

/** The search parameter a link sets to say which of the reader's sessions opens the page. */
export const AS_ROLE_PARAM = 'as';

const isRole = (value: string | null): value is Role =>
  (ROLES as readonly string[]).includes(value ?? '');

/**
 * Which session opens a page any signed-in role may read (a receipt: its payer, its payee or
 * an admin): the role the link names (`?as=professional`), else the first role signed in on
 * this browser (customer, professional, admin), else the customer's sign-in.
 */
export function chosenRole(asked: string | null, signedIn: readonly Role[]): Role {
  if (isRole(asked)) return asked;
  return signedIn[0] ?? 'customer';
}
