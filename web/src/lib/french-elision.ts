/**
 * French elision of the words the catalogue writes before a name: "le travail de {{name}}"
 * must read "le travail d’Ana Roy", and "Voir la soumission de {{name}}" "… d’Éric". The
 * catalogue cannot elide a value it does not know yet, so the elision is made once the
 * value is in. Only "de" and "que" before a capital vowel are elided: a capital after them
 * is a name or a place, and the catalogue's own words already elide (checked in the tests).
 * H is left alone, as names with an aspirated h ("de Hamel") keep their "de".
 */
import type { PostProcessorModule } from 'i18next';

const BEFORE_A_NAME = /(^|[\s(«\u00a0])(d|qu)e (?=[AEIOUYÀÂÆÉÈÊËÎÏÔŒÙÛÜ])/gu;
const FR_APOSTROPHE = '’';

/** `text` with "de Ana" and "que Éric" elided to "d’Ana" and "qu’Éric". */
export function elideBeforeNames(text: string): string {
  return text.replace(BEFORE_A_NAME, `$1$2${FR_APOSTROPHE}`);
}

/** An i18next post-processor applying the elision to French texts only. */
export const frenchElision: PostProcessorModule = {
  type: 'postProcessor',
  name: 'frenchElision',
  process(value, _key, options, translator: { language?: string } | undefined) {
    const language = (options.lng as string | undefined) ?? translator?.language;
    return language?.startsWith('fr') ? elideBeforeNames(value) : value;
  },
};
