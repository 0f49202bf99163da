/**
 * Renewing a role's session with its refresh token (AccountsService.RefreshSession). A
 * refresh token is good once: sent twice, the server ends the whole sign-in. So renewals of
 * a role run one at a time across the browser's tabs (`withLock`), and each reads the stored
 * session again once it holds the lock: when another tab renewed meanwhile, its token is
 * used and nothing is sent.
 */
import { Code } from '@connectrpc/connect';
import { readRpcError } from './rpc-error';
import {
  checkSession,
  liveRefresh,
  renewalDue,
  storeTokens,
  type IssuedSession,
  type Role,
  type SessionEndReason,
  type SessionEnvironment,
} from './session';

export type RenewalOutcome =
  /** The session goes on with this access token (renewed, or still good). */
  | { kind: 'ready'; token: string }
  /** The session is over: sign in again. */
  | { kind: 'ended'; reason: SessionEndReason }
  /** The renewal could not be done now (the network, the server unavailable): try later. */
  | { kind: 'failed'; error: unknown };

export interface RenewalDependencies {
  env: SessionEnvironment;
  /** Runs a task holding a lock shared by the browser's tabs. */
  lock: <T>(name: string, task: () => Promise<T>) => Promise<T>;
  /** Trades a refresh token for the next session (AccountsService.RefreshSession). */
  refresh: (refreshToken: string) => Promise<IssuedSession>;
}

/** The server's answers to a refresh that end the session (anything else may pass). */
const ENDING_REASONS: readonly string[] = [
  'SESSION_EXPIRED',
  'SESSION_INVALID',
  'SESSION_REVOKED',
  'SESSION_TOO_OLD',
  'SIGN_IN_REQUIRED',
];

const lockName = (role: Role) => `repairs-session-renewal:${role}`;

/**
 * Renews `role`'s session if it is due (or, with `refused`, if the stored access token is
 * still the one a call was just refused with as expired), unless another tab did it first.
 */
export function renewSession(
  role: Role,
  deps: RenewalDependencies,
  refused?: string,
): Promise<RenewalOutcome> {
  return deps.lock(lockName(role), async (): Promise<RenewalOutcome> => {
    const check = checkSession(role, deps.env);
    if (check.status === 'signed-out') return { kind: 'ended', reason: 'SIGN_IN_REQUIRED' };
    if (check.status === 'expired') return { kind: 'ended', reason: check.reason };
    if (check.status === 'active') {
      const stillGood =
        refused === undefined ? !renewalDue(check, deps.env) : check.token !== refused;
      if (stillGood) return { kind: 'ready', token: check.token };
    }
    const refresh = liveRefresh(role, deps.env);
    if (!refresh) return { kind: 'ended', reason: 'SESSION_EXPIRED' };
    try {
      const issued = await deps.refresh(refresh.token);
      storeTokens(role, issued, deps.env);
      return { kind: 'ready', token: issued.accessToken };
    } catch (error) {
      const problem = readRpcError(error);
      if (ENDING_REASONS.includes(problem.reason) || problem.code === Code.InvalidArgument) {
        return { kind: 'ended', reason: endReason(problem.reason) };
      }
      return { kind: 'failed', error };
    }
  });
}

/**
 * The access token to send now: the stored one while it is good, else a renewed one; or why
 * there is none: nobody is signed in, the session is over (`ended`), or it cannot be renewed
 * just now (`failed`).
 */
export async function currentToken(
  role: Role,
  deps: RenewalDependencies,
): Promise<RenewalOutcome | { kind: 'signed-out' }> {
  const check = checkSession(role, deps.env);
  if (check.status === 'signed-out') return { kind: 'signed-out' };
  if (check.status === 'active' && !renewalDue(check, deps.env)) {
    return { kind: 'ready', token: check.token };
  }
  const outcome = await renewSession(role, deps);
  // A renewal ahead of time that could not be done leaves the token to its last minute.
  if (outcome.kind === 'failed' && check.status === 'active') {
    const again = checkSession(role, deps.env);
    if (again.status === 'active') return { kind: 'ready', token: again.token };
  }
  return outcome;
}

function endReason(reason: string): SessionEndReason {
  return (ENDING_REASONS as readonly string[]).includes(reason)
    ? (reason as SessionEndReason)
    : 'SESSION_INVALID';
}
