// The app's own texts for the end-to-end stories: they read every label and message from the
// catalogues in the run's language, so a changed wording changes the story with it.
import { readFile } from 'node:fs/promises';
import { createInstance } from 'i18next';

const catalogue = async (language) =>
  JSON.parse(await readFile(new URL(`../src/locales/${language}.json`, import.meta.url), 'utf8'));

/** The app's `t` in `language`, from the same catalogues and settings as src/lib/i18n.ts. */
export async function translator(language) {
  const i18n = createInstance();
  await i18n.init({
    lng: language,
    fallbackLng: 'en',
    resources: { [language]: { translation: await catalogue(language) } },
    interpolation: { escapeValue: false },
  });
  return i18n.t.bind(i18n);
}

/** A label that begins with `text` (a required field's label ends with a mark). */
export const startsWith = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
