import { createInstance, type FormatterModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@/locales/en.json';
import fr from '@/locales/fr.json';
import { frenchElision } from './french-elision';
import { parseLanguage, type Language } from './language';
import { formatNumber } from './money';

/** The two catalogues. Every string a person reads comes from them. */
export const catalogues = { en, fr } as const;

/**
 * Interpolated values come formatted by the code, except a `{{count}}`, which i18next needs
 * as a number to choose the plural: this formatter writes it as the language writes figures
 * ("1 234 sur 5 000 caractères", not "1234 sur 5 000"). It replaces i18next's own, so the
 * catalogues use no `{{value, format}}` (catalogues.test.ts checks).
 */
export const countFigures: FormatterModule = {
  type: 'formatter',
  init: () => {},
  add: () => {},
  addCached: () => {},
  format: (value: unknown, _format, lng, options) =>
    options?.interpolationkey === 'count' && typeof value === 'number'
      ? formatNumber(value, parseLanguage(lng))
      : (value as string),
};

/**
 * Creates the i18next instance of the app (tests create their own). The `languageChanged`
 * listener is registered before `init()` so that `<html lang>` is right from the first render.
 */
export function createI18n(language: Language, root: HTMLElement = document.documentElement): I18n {
  const instance = createInstance();
  instance.on('languageChanged', (lng) => {
    root.lang = lng;
  });
  void instance
    .use(initReactI18next)
    .use(frenchElision)
    .use(countFigures)
    .init({
      lng: language,
      fallbackLng: 'en',
      supportedLngs: ['en', 'fr'],
      resources: { en: { translation: en }, fr: { translation: fr } },
      interpolation: { escapeValue: false, alwaysFormat: true },
      postProcess: [frenchElision.name],
      initAsync: false,
    });
  return instance;
}
