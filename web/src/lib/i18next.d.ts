import 'i18next';
import type en from '@/locales/en.json';

// Types every translation key: a key missing from the English catalogue fails to compile.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
