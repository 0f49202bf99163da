import { Code, ConnectError, createClient, type Transport } from '@connectrpc/connect';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import type { IssuedSession } from '@/lib/session';
import { issuedSession } from '../issued-session';

/**
 * Trades a refresh token for the next session (AccountsService.RefreshSession). Sent without
 * a bearer token: the refresh token is the proof. Only `lib/session-renewal` calls it, under
 * its lock, as a refresh token is good once.
 */
export async function refreshSession(
  transport: Transport,
  refreshToken: string,
): Promise<IssuedSession> {
  const { session } = await createClient(AccountsService, transport).refreshSession({
    refreshToken,
  });
  if (!session) throw new ConnectError('the renewal answered no session', Code.Internal);
  return issuedSession(session);
}
