import type { Language } from '@/lib/language';
import type { Role } from '@/lib/session';
import type { KeyValueStore } from '@/lib/storage';

/**
 * Whose alerts this browser's push subscription carries, and in which language the server
 * writes them. One browser holds one subscription whoever signs in on it: the "Alert me on
 * this device" switch shows "on" only for the account that turned it on, only that account's
 * sign-out ends it, and its alerts follow the language that account last used the site in.
 */
const OWNER_KEY = 'device-alerts';

/** How an account is named in the record: its role and id. */
export const deviceAccount = (role: Role, accountId: string) => `${role}:${accountId}`;

interface OwnerRecord {
  endpoint?: string;
  account?: string;
  /** Missing in records written before alerts followed the language. */
  language?: Language;
}

function ownerRecord(store: KeyValueStore, endpoint: string): OwnerRecord {
  const stored = store.getItem(OWNER_KEY);
  try {
    const owner = stored ? (JSON.parse(stored) as OwnerRecord) : {};
    return owner.endpoint === endpoint ? owner : {};
  } catch {
    return {};
  }
}

/** The account that subscribed `endpoint` on this browser, if it is the one recorded. */
export function deviceOwner(store: KeyValueStore, endpoint: string): string | null {
  return ownerRecord(store, endpoint).account ?? null;
}

/** The language the server was last told for `endpoint`'s alerts, if recorded. */
export function deviceAlertsLanguage(store: KeyValueStore, endpoint: string): Language | null {
  return ownerRecord(store, endpoint).language ?? null;
}

export function rememberDeviceOwner(
  store: KeyValueStore,
  endpoint: string,
  account: string,
  language: Language,
) {
  store.setItem(OWNER_KEY, JSON.stringify({ endpoint, account, language }));
}

export function forgetDeviceOwner(store: KeyValueStore) {
  store.removeItem(OWNER_KEY);
}
