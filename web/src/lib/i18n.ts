import { createInstance, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@/locales/en.json';
import fr from '@/locales/fr.json';
import { frenchElision } from './french-elision';
import type { Language } from './language';

/** The two catalogues. Every string a person reads comes from them. */
export const catalogues = { en, fr } as const;

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
    .init({
      lng: language,
      fallbackLng: 'en',
      supportedLngs: ['en', 'fr'],
      resources: { en: { translation: en }, fr: { translation: fr } },
      interpolation: { escapeValue: false },
      postProcess: [frenchElision.name],
      initAsync: false,
    });
  return instance;
}
