import { createClient, type Transport } from '@connectrpc/connect';
import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';

/** How long a sign-out may take before the browser forgets the session anyway. */
const SIGN_OUT_TIMEOUT_MS = 3000;

/** Ends the sign-in the refresh token belongs to (AccountsService.SignOut). */
export async function signOut(transport: Transport, refreshToken: string): Promise<void> {
  await createClient(AccountsService, transport).signOut(
    { refreshToken },
    { timeoutMs: SIGN_OUT_TIMEOUT_MS },
  );
}
