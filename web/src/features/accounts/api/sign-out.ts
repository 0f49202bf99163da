import { createClient, type Transport } from '@connectrpc/connect';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** How long a sign-out may take before the browser forgets the session anyway. */
const SIGN_OUT_TIMEOUT_MS = 3000;

/**
 * Ends the sign-in the refresh token belongs to (AccountsService.SignOut), and forgets this
 * browser's push subscription of the account when `pushEndpoint` names it.
 */
export async function signOut(
  transport: Transport,
  refreshToken: string,
  pushEndpoint = '',
): Promise<void> {
  await createClient(AccountsService, transport).signOut(
    { refreshToken, pushEndpoint },
    { timeoutMs: SIGN_OUT_TIMEOUT_MS },
  );
}
