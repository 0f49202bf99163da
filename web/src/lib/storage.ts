/** The part of the Web Storage API the app uses; tests pass an in-memory one. */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** An in-memory store, for tests and for browsers that refuse localStorage. */
export function createMemoryStore(initial: Record<string, string> = {}): KeyValueStore {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, String(value)),
    removeItem: (key) => void values.delete(key),
  };
}

let fallback: KeyValueStore | undefined;

/**
 * The browser's localStorage, where the language and the session tokens live.
 * Falls back to memory when storage is blocked (some private modes throw on access).
 */
export function browserStore(): KeyValueStore {
  try {
    const storage = window.localStorage;
    const probe = '__storage_probe__';
    storage.setItem(probe, probe);
    storage.removeItem(probe);
    return storage;
  } catch {
    fallback ??= createMemoryStore();
    return fallback;
  }
}
