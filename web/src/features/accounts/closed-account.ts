/**
 * An account its person closed (AccountsService.RequestAccountDeletion): what this browser
 * forgets of it at once, and how the closing's answer travels to the page that confirms it.
 */
import { timestampMs, type Timestamp } from '@bufbuild/protobuf/wkt';
import { forgetDrafts } from '@/lib/drafts';
import { endSession, storedAccountId } from '@/lib/session';
import type { KeyValueStore } from '@/lib/storage';
import type { PushDevice } from '@/lib/web-push';
import { deviceAccount, deviceOwner, forgetDeviceOwner } from './device-owner';
import type { MemberRole } from './roles';

/** The page that says the account is closed (outside the areas: nobody is signed in). */
export const ACCOUNT_CLOSED_PATH = '/account-closed';

/**
 * Signs the closed account out of this browser: its session and drafts go, and so does this
 * browser's push subscription when it carried that account's alerts (the server forgot the
 * account's devices already). Nothing is asked of the server: the closing ended every
 * session. Other roles' sessions stay.
 */
export async function forgetClosedAccount(
  role: MemberRole,
  store: KeyValueStore,
  device: PushDevice,
): Promise<void> {
  const accountId = storedAccountId(role, store);
  endSession(role, store);
  if (!accountId) return;
  forgetDrafts(store, accountId);
  if (!device.supported()) return;
  const subscription = await device.current().catch(() => null);
  if (!subscription) return;
  if (deviceOwner(store, subscription.endpoint) !== deviceAccount(role, accountId)) return;
  await subscription.unsubscribe().catch(() => false);
  forgetDeviceOwner(store);
}

/** The history state of the closed-account page: what the closing answered. */
export interface AccountClosedState {
  /** When the account is erased at the earliest (epoch milliseconds); null when not said. */
  eraseAfterMs: number | null;
  /** How many requests' open hire or dispute hold the erasure until they end. */
  heldBy: number;
}

export function accountClosedState(answer: {
  eraseAfter?: Timestamp;
  heldByRepairRequestIds: readonly string[];
}): AccountClosedState {
  return {
    eraseAfterMs: answer.eraseAfter ? timestampMs(answer.eraseAfter) : null,
    heldBy: answer.heldByRepairRequestIds.length,
  };
}

/** The closing's answer a page was opened with, if it is one. */
export function readAccountClosed(state: unknown): AccountClosedState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { eraseAfterMs, heldBy } = state as Record<string, unknown>;
  const time = typeof eraseAfterMs === 'number' && Number.isFinite(eraseAfterMs);
  if (!time && eraseAfterMs !== null) return null;
  if (typeof heldBy !== 'number' || !Number.isInteger(heldBy) || heldBy < 0) return null;
  return { eraseAfterMs: time ? eraseAfterMs : null, heldBy };
}
