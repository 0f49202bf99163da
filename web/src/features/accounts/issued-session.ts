import type { Session } from '@/gen/repairs/accounts/v1/accounts_pb';
import type { IssuedSession } from '@/lib/session';

/** What the browser keeps of the contract's Session: the tokens and their ends. */
export function issuedSession(session: Session): IssuedSession {
  return {
    accessToken: session.accessToken,
    expiresAt: session.expireTime ? Number(session.expireTime.seconds) : undefined,
    refreshToken: session.refreshToken || undefined,
    refreshExpiresAt: session.refreshExpiresAt
      ? Number(session.refreshExpiresAt.seconds)
      : undefined,
  };
}
