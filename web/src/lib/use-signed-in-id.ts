import { signedInAccountId, type Role } from './session';
import { browserSessionEnvironment } from './session-environment';

/** The id of the account signed in as `role` (inside RequireRole it is always there). */
export function useSignedInId(role: Role): string | null {
  return signedInAccountId(role, browserSessionEnvironment());
}
