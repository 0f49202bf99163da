import type { KeyValueStore } from './storage';

/** The two languages of the product. */
export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/** localStorage key holding the chosen language ('en' or 'fr'). */
export const LANGUAGE_STORAGE_KEY = 'lang';

/** How long the loader shows after choosing a language, before the page reloads. */
export const LANGUAGE_SWITCH_DELAY_MS = 2000;

/** The locale used for numbers, money and dates: the product serves Canada. */
export const LOCALES: Record<Language, string> = { en: 'en-CA', fr: 'fr-CA' };

/** Anything but 'fr' means English, the default. */
export function parseLanguage(value: string | null | undefined): Language {
  return value === 'fr' ? 'fr' : 'en';
}

/** The language chosen on this browser (the switch, a sign-in), or null when none was. */
export function readStoredLanguage(store: KeyValueStore): Language | null {
  const stored = store.getItem(LANGUAGE_STORAGE_KEY);
  return stored === 'en' || stored === 'fr' ? stored : null;
}

export function storeLanguage(store: KeyValueStore, language: Language): void {
  store.setItem(LANGUAGE_STORAGE_KEY, language);
}

/** The first of the browser's languages the product speaks ('fr-CA' is French); else English. */
export function browserLanguage(languages: readonly string[]): Language {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'fr' || primary === 'en') return primary;
  }
  return 'en';
}

/** The browser's languages, most wanted first (none where there is no browser: the prerender). */
function navigatorLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/** The language of a page whose path does not say it: the stored choice, else the browser's. */
export function preferredLanguage(
  store: KeyValueStore,
  languages: readonly string[] = navigatorLanguages(),
): Language {
  return readStoredLanguage(store) ?? browserLanguage(languages);
}

const FRENCH_PREFIX = '/fr';

/** Splits '/a/b?q#h' into its path and what follows it ('?q#h'). */
function splitPath(path: string): [string, string] {
  const end = path.search(/[?#]/);
  return end === -1 ? [path, ''] : [path.slice(0, end), path.slice(end)];
}

/** Whether a path is a French page: '/fr' or under '/fr/' ('/french-fries' is not). */
export function isFrenchPath(path: string): boolean {
  const [pathname] = splitPath(path);
  return pathname === FRENCH_PREFIX || pathname.startsWith(`${FRENCH_PREFIX}/`);
}

/** '/fr/login' -> '/login', '/fr' -> '/'; other paths are returned unchanged. */
export function englishPath(path: string): string {
  if (!isFrenchPath(path)) return path;
  const [pathname, rest] = splitPath(path);
  return `${pathname.slice(FRENCH_PREFIX.length) || '/'}${rest}`;
}

/**
 * The one rule of the app's addresses: every page has a French twin under /fr. A path of the
 * app in a language: '/login' in French is '/fr/login', '/fr/contact?x=1' in English is
 * '/contact?x=1'; a path already in the language is returned as it is. What is not a path of
 * the app ('#top', 'edit', '//host/x', 'mailto:...') is returned unchanged.
 */
export function pathInLanguage(path: string, language: Language): string {
  if (!path.startsWith('/') || path.startsWith('//')) return path;
  const english = englishPath(path);
  if (language === 'en') return english;
  const [pathname, rest] = splitPath(english);
  return `${pathname === '/' ? FRENCH_PREFIX : `${FRENCH_PREFIX}${pathname}`}${rest}`;
}

/**
 * The language a page renders in: French under /fr, otherwise `preferred` (the stored
 * choice, else the browser's: `preferredLanguage`), whose pages then go to their /fr twin.
 */
export function pageLanguage(pathname: string, preferred: Language): Language {
  return isFrenchPath(pathname) ? 'fr' : preferred;
}
