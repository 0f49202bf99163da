// The app's own texts for the end-to-end stories: they read every label and message from the
// catalogues in the run's language, so a changed wording changes the story with it.
import { readFile } from 'node:fs/promises';
import { createInstance } from 'i18next';
import ts from 'typescript';

const catalogue = async (language) =>
  JSON.parse(await readFile(new URL(`../src/locales/${language}.json`, import.meta.url), 'utf8'));

/** The app's own French elision (src/lib/french-elision.ts), compiled for node. */
async function frenchElision() {
  const source = await readFile(new URL('../src/lib/french-elision.ts', import.meta.url), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const encoded = Buffer.from(outputText).toString('base64');
  return (await import(`data:text/javascript;base64,${encoded}`)).frenchElision;
}

/** The app's `t` in `language`, from the same catalogues and settings as src/lib/i18n.ts. */
export async function translator(language) {
  const elision = await frenchElision();
  const i18n = createInstance().use(elision);
  await i18n.init({
    lng: language,
    fallbackLng: 'en',
    resources: { [language]: { translation: await catalogue(language) } },
    interpolation: { escapeValue: false },
    postProcess: [elision.name],
  });
  return i18n.t.bind(i18n);
}

/** A label that begins with `text` (a required field's label ends with a mark). */
export const startsWith = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
