import { describe, expect, it } from 'vitest';
import { createI18n } from './i18n';
import type { Language } from './language';

describe('the app’s i18next', () => {
  it.each<[Language, number, string]>([
    ['fr', 1234, '1\u00a0234 caractères sur 4\u00a0000.'],
    ['fr', 12, '12 caractères sur 4\u00a0000.'],
    ['en', 1234, '1,234 of 4,000 characters.'],
  ])('writes a %s count of %s as a figure, like the bound beside it', (language, count, text) => {
    const i18n = createI18n(language, document.createElement('html'));
    const max = language === 'fr' ? '4\u00a0000' : '4,000';
    expect(i18n.t('conversations.characters', { count, max })).toBe(text);
  });

  it('still chooses the plural from the number, and leaves other values as given', () => {
    const fr = createI18n('fr', document.createElement('html'));
    expect(fr.t('jobs.quoteCount', { count: 1 })).toBe('1 soumission');
    expect(fr.t('jobs.quoteCount', { count: 2000 })).toBe('2\u00a0000 soumissions');
    expect(fr.t('footer.copyright', { year: 2026 })).toBe(
      '© 2026 Repairs 24/7. Tous droits réservés.',
    );
  });
});
