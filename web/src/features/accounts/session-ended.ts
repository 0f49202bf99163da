/**
 * How an ended session travels to the sign-in page: the logout route is opened with why the
 * session ended and where the person was, it clears the session and opens the role's sign-in
 * page with the same, which says why and, once signed in again, goes back there.
 */
import type { Location } from 'react-router';
import type { SessionEndReason } from '@/lib/session';

/** The history state of the logout route and of the sign-in page after a session ended. */
export interface SessionEndedState {
  ended: SessionEndReason;
  /** The page the person was on (path and query). */
  returnTo: string;
}

const REASONS: readonly SessionEndReason[] = [
  'SESSION_EXPIRED',
  'SESSION_INVALID',
  'SESSION_REVOKED',
  'SESSION_TOO_OLD',
  'SIGN_IN_REQUIRED',
];

export function sessionEndedState(
  reason: SessionEndReason,
  where: Pick<Location, 'pathname' | 'search'>,
): SessionEndedState {
  return { ended: reason, returnTo: `${where.pathname}${where.search}` };
}

/** A page of this app to go back to: a path of this origin, never another site. */
export function isReturnPath(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//');
}

/** The ended-session state a page was opened with, if it is one. */
export function readSessionEnded(state: unknown): SessionEndedState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { ended, returnTo } = state as Record<string, unknown>;
  if (!REASONS.includes(ended as SessionEndReason) || !isReturnPath(returnTo)) return null;
  return { ended: ended as SessionEndReason, returnTo };
}
