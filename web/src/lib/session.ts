/**
 * Browser sessions of the three roles, as the specs describe them.
 *
 * The role is decided by which token is stored (customer `token`, professional
 * `professional-token`, admin `admin_token`). The token is a JWT whose payload is read here
 * without verifying it: the server verifies every call, this module only decides where the
 * browser should go. Pure functions: storage and clock are passed in.
 */
import type { KeyValueStore } from './storage';

export const ROLES = ['customer', 'professional', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Customer and professional tokens count as expired this long after they were issued. */
export const SESSION_MAX_AGE_SECONDS = 3600;

/** localStorage keys of each role's session. */
export const SESSION_KEYS = {
  customer: { token: 'token', name: 'username' },
  professional: {
    token: 'professional-token',
    name: 'professional-name',
    status: 'professional-status',
    denialReason: 'professional-denial-reason',
    address: 'professional-address',
  },
  admin: { token: 'admin_token', name: 'admin_name' },
} as const satisfies Record<Role, { token: string; name: string; [key: string]: string }>;

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
 * The first moment, in epoch seconds, at which a session counts as expired: the token's `exp`
 * and, for customers and professionals, "issued more than 3600 s ago" (so iat + 3601).
 * A customer or professional token without `iat` cannot be aged and is expired at once.
 * Infinity when nothing limits the session (an admin token without `exp`).
 */
export function sessionEndsAt(role: Role, claims: TokenClaims): number {
  const expiry = claims.exp ?? Infinity;
  if (role === 'admin') return expiry;
  const ageLimit = (claims.iat ?? -Infinity) + SESSION_MAX_AGE_SECONDS + 1;
  return Math.min(expiry, ageLimit);
}

export type SessionCheck =
  | { status: 'signed-out' }
  /** Expired, or a stored value that is not a token of this role: the logout route clears it. */
  | { status: 'expired' }
  | { status: 'active'; token: string; claims: TokenClaims; endsAt: number };

export interface SessionEnvironment {
  store: KeyValueStore;
  /** Current time in milliseconds, like Date.now. */
  now: () => number;
}

/** The state of a role's stored session at this moment. */
export function checkSession(role: Role, { store, now }: SessionEnvironment): SessionCheck {
  const token = store.getItem(SESSION_KEYS[role].token);
  if (!token) return { status: 'signed-out' };
  const claims = decodeTokenClaims(token);
  if (!claims) return { status: 'expired' };
  if (claims.role !== undefined && !ROLE_CLAIMS[role].includes(claims.role)) {
    return { status: 'expired' };
  }
  const endsAt = sessionEndsAt(role, claims);
  if (Math.floor(now() / 1000) >= endsAt) return { status: 'expired' };
  return { status: 'active', token, claims, endsAt };
}

/** Where a page reserved to `role` sends the browser, or null when it may show. */
export function guardRedirect(role: Role, check: SessionCheck): string | null {
  switch (check.status) {
    case 'signed-out':
      return SIGN_IN_PATHS[role];
    case 'expired':
      return LOGOUT_PATHS[role];
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
  return checkSession(role, env).status === 'active' ? homePath(role, env.store) : null;
}

/**
 * On the professional landing page: a signed-in professional goes to the dashboard (or the
 * profile form), one whose session is too old goes through logout; others see the page.
 */
export function professionalLandingRedirect(env: SessionEnvironment): string | null {
  const check = checkSession('professional', env);
  if (check.status === 'active') return homePath('professional', env.store);
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

/** Stores a new session of `role`, replacing whatever that role had stored. */
export function startSession(
  role: Role,
  token: string,
  details: SessionDetails,
  store: KeyValueStore,
): void {
  endSession(role, store);
  const keys = SESSION_KEYS[role];
  store.setItem(keys.token, token);
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
  return ROLES.filter((role) => checkSession(role, env).status === 'active').map((role) => ({
    role,
    name: env.store.getItem(SESSION_KEYS[role].name) ?? '',
  }));
}

/** The id of the account signed in as `role` (the token's subject), or null. */
export function signedInAccountId(role: Role, env: SessionEnvironment): string | null {
  const check = checkSession(role, env);
  return check.status === 'active' ? check.claims.sub : null;
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
