import { describe, expect, it } from 'vitest';
import fr from '@/locales/fr.json';
import { createI18n } from './i18n';
import { elideBeforeNames } from './french-elision';

function texts(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (node !== null && typeof node === 'object') return Object.values(node).flatMap(texts);
  return [];
}

describe('French elision before names', () => {
  it('elides de and que before a name starting with a vowel', () => {
    expect(elideBeforeNames('Marquer comme terminé le travail de Ana Roy')).toBe(
      'Marquer comme terminé le travail d’Ana Roy',
    );
    expect(elideBeforeNames('Voir la soumission de Éric')).toBe('Voir la soumission d’Éric');
    expect(elideBeforeNames('plus tôt que Yves')).toBe('plus tôt qu’Yves');
  });

  it('leaves other names, and words that are not names, alone', () => {
    for (const text of ['le travail de Marc', 'de Hamel', 'de onze heures', 'idée de Ana']) {
      expect(elideBeforeNames(text)).toBe(text.replace('idée de Ana', 'idée d’Ana'));
    }
  });

  it('finds nothing to elide in the catalogue itself: its own words are written elided', () => {
    const changed = texts(fr).filter((text) => elideBeforeNames(text) !== text);
    expect(changed).toEqual([]);
  });

  it('applies to French texts once the name is in, and never to English ones', () => {
    const french = createI18n('fr', document.createElement('div'));
    expect(french.t('requests.markCompletedFor', { name: 'Ana Roy' })).toBe(
      'Marquer comme terminé\u00a0: le travail d’Ana Roy',
    );
    const english = createI18n('en', document.createElement('div'));
    expect(english.t('requests.markCompletedFor', { name: 'Ana Roy' })).toBe(
      'Mark Completed: Ana Roy’s job',
    );
  });
});
