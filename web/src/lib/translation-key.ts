import type { ParseKeys } from 'i18next';

/** Any key of the catalogues, checked by the compiler (see i18next.d.ts). */
export type TranslationKey = ParseKeys;
