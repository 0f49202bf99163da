import type { Role } from '@/lib/session';
import type { KeyValueStore } from '@/lib/storage';

/**
 * Whose alerts this browser's push subscription carries. One browser holds one subscription
 * whoever signs in on it: the "Alert me on this device" switch shows "on" only for the
 * account that turned it on, and only that account's sign-out ends it.
 */
const OWNER_KEY = 'device-alerts';

/** How an account is named in the record: its role and id. */
export const deviceAccount = (role: Role, accountId: string) => `${role}:${accountId}`;

/** The account that subscribed `endpoint` on this browser, if it is the one recorded. */
export function deviceOwner(store: KeyValueStore, endpoint: string): string | null {
  const stored = store.getItem(OWNER_KEY);
  try {
    const owner = stored ? (JSON.parse(stored) as { endpoint?: string; account?: string }) : {};
    return owner.endpoint === endpoint ? (owner.account ?? null) : null;
  } catch {
    return null;
  }
}

export function rememberDeviceOwner(store: KeyValueStore, endpoint: string, account: string) {
  store.setItem(OWNER_KEY, JSON.stringify({ endpoint, account }));
}

export function forgetDeviceOwner(store: KeyValueStore) {
  store.removeItem(OWNER_KEY);
}
