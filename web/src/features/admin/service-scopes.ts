import type { TranslationKey } from '@/lib/translation-key';

/**
 * The scopes a service account may hold, as the server names them (its closed set,
 * `server/src/auth/service.rs`), each with what it opens.
 */
export const SCOPES = [
  'orders.read',
  'requests.read',
  'content.write',
  'audit.read',
  'contacts.read',
] as const;

const KEYS: Record<string, TranslationKey> = {
  'orders.read': 'serviceAccounts.scopeNames.ordersRead',
  'requests.read': 'serviceAccounts.scopeNames.requestsRead',
  'content.write': 'serviceAccounts.scopeNames.contentWrite',
  'audit.read': 'serviceAccounts.scopeNames.auditRead',
  'contacts.read': 'serviceAccounts.scopeNames.contactsRead',
};

/** The label key of a scope; none for one this app does not know (a newer server's). */
export function scopeKey(scope: string): TranslationKey | undefined {
  return KEYS[scope];
}
