/**
 * Drafts: what a person typed in a form, kept in the browser as they type, so that a session
 * that ends (or a page closed by mistake) loses nothing. One entry per account
 * (`drafts:<account id>`), holding each form's values and when they were saved; a draft is
 * given back to the same account only, for a week, and a sign-out forgets the account's
 * drafts. Pure functions: storage and clock are passed in.
 */
import type { KeyValueStore } from './storage';

/** How long a draft is kept. */
export const DRAFT_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/** What a draft holds of a form: its text, choices and boxes. */
export type DraftValues = Record<string, string | boolean>;

interface SavedDraft {
  savedAt: number;
  values: DraftValues;
}

const storageKey = (accountId: string) => `drafts:${accountId}`;

function readAll(store: KeyValueStore, accountId: string): Record<string, SavedDraft> {
  try {
    const parsed: unknown = JSON.parse(store.getItem(storageKey(accountId)) ?? '{}');
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, SavedDraft>)
      : {};
  } catch {
    return {};
  }
}

function writeAll(store: KeyValueStore, accountId: string, drafts: Record<string, SavedDraft>) {
  if (Object.keys(drafts).length === 0) store.removeItem(storageKey(accountId));
  else store.setItem(storageKey(accountId), JSON.stringify(drafts));
}

/** The text and choices of `values`; nothing when all of it is empty. */
function draftValues(values: Record<string, unknown>): DraftValues | null {
  const kept: DraftValues = {};
  let typed = false;
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== 'string' && typeof value !== 'boolean') continue;
    kept[name] = value;
    typed ||= value === true || (typeof value === 'string' && value.trim() !== '');
  }
  return typed ? kept : null;
}

/** The draft of `form` for this account, if one younger than a week was saved. */
export function readDraft(
  store: KeyValueStore,
  accountId: string,
  form: string,
  now: number,
): DraftValues | null {
  const saved = readAll(store, accountId)[form];
  if (!saved || typeof saved.savedAt !== 'number' || now - saved.savedAt > DRAFT_MAX_AGE_MS) {
    return null;
  }
  return draftValues(saved.values ?? {});
}

/** Saves what the form holds now (an empty form removes its draft). */
export function saveDraft(
  store: KeyValueStore,
  accountId: string,
  form: string,
  values: Record<string, unknown>,
  now: number,
): void {
  const drafts = readAll(store, accountId);
  const kept = draftValues(values);
  if (kept) drafts[form] = { savedAt: now, values: kept };
  else delete drafts[form];
  // Older drafts go as the new one is saved.
  for (const [name, draft] of Object.entries(drafts)) {
    if (now - draft.savedAt > DRAFT_MAX_AGE_MS) delete drafts[name];
  }
  writeAll(store, accountId, drafts);
}

/** Removes the draft of `form` (it was sent). */
export function clearDraft(store: KeyValueStore, accountId: string, form: string): void {
  const drafts = readAll(store, accountId);
  delete drafts[form];
  writeAll(store, accountId, drafts);
}

/** Removes every draft of the account (it signed out). */
export function forgetDrafts(store: KeyValueStore, accountId: string): void {
  store.removeItem(storageKey(accountId));
}
