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

export function readStoredLanguage(store: KeyValueStore): Language {
  return parseLanguage(store.getItem(LANGUAGE_STORAGE_KEY));
}

export function storeLanguage(store: KeyValueStore, language: Language): void {
  store.setItem(LANGUAGE_STORAGE_KEY, language);
}

/** English pages that have a French twin under /fr (the specs' route table). */
export const PATHS_WITH_FRENCH_TWIN = [
  '/',
  '/professional',
  '/register',
  '/login',
  '/register-as-professional',
  '/login-as-professional',
] as const;

const FRENCH_PREFIX = '/fr';

function isFrenchPath(pathname: string): boolean {
  return pathname === FRENCH_PREFIX || pathname.startsWith(`${FRENCH_PREFIX}/`);
}

/** '/fr/login' -> '/login', '/fr' -> '/'; other paths are returned unchanged. */
export function englishPath(pathname: string): string {
  if (!isFrenchPath(pathname)) return pathname;
  return pathname.slice(FRENCH_PREFIX.length) || '/';
}

function hasFrenchTwin(englishPathname: string): boolean {
  return (PATHS_WITH_FRENCH_TWIN as readonly string[]).includes(englishPathname);
}

/**
 * The same page in a language: '/login' in French is '/fr/login', '/fr' in English is '/'.
 * A path without a French twin (such as '/contact') is returned unchanged.
 */
export function pathInLanguage(pathname: string, language: Language): string {
  const english = englishPath(pathname);
  if (!hasFrenchTwin(english)) return pathname;
  if (language === 'en') return english;
  return english === '/' ? FRENCH_PREFIX : `${FRENCH_PREFIX}${english}`;
}

/**
 * The language a page renders in: French under /fr, otherwise the stored choice (pages
 * without a French twin, such as /contact, follow the stored language).
 */
export function pageLanguage(pathname: string, stored: Language): Language {
  return isFrenchPath(pathname) ? 'fr' : stored;
}
