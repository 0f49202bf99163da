import { describe, expect, it } from 'vitest';
import { KNOWN_REASONS, reasonMessageKey } from '@/lib/error-reasons';
import en from './en.json';
import fr from './fr.json';

/** Every leaf of a catalogue as `path -> text` (array items get their index in the path). */
function leaves(node: unknown, path = ''): Map<string, string> {
  const found = new Map<string, string>();
  if (typeof node === 'string') {
    found.set(path, node);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, child] of Object.entries(node)) {
      for (const [childPath, text] of leaves(child, path ? `${path}.${key}` : key)) {
        found.set(childPath, text);
      }
    }
  } else {
    found.set(path, `<not text: ${String(node)}>`);
  }
  return found;
}

const placeholders = (text: string) =>
  [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

const catalogues = { en: leaves(en), fr: leaves(fr) };

describe('translation catalogues', () => {
  it.each([
    ['en', 'fr'],
    ['fr', 'en'],
  ] as const)('every key of %s exists in %s', (from, to) => {
    const missing = [...catalogues[from].keys()].filter((key) => !catalogues[to].has(key));
    expect(missing).toEqual([]);
  });

  it.each(['en', 'fr'] as const)('%s has only non-empty texts', (language) => {
    const bad = [...catalogues[language]].filter(
      ([, text]) => text.trim() === '' || text.startsWith('<not text'),
    );
    expect(bad).toEqual([]);
  });

  it('uses the same placeholders in both languages', () => {
    const different = [...catalogues.en].filter(
      ([key, text]) =>
        placeholders(text).join() !== placeholders(catalogues.fr.get(key) ?? '').join(),
    );
    expect(different).toEqual([]);
  });

  it('is really translated: most French texts differ from the English ones', () => {
    const same = [...catalogues.en].filter(([key, text]) => catalogues.fr.get(key) === text);
    expect(same.length / catalogues.en.size).toBeLessThan(0.1);
  });

  it.each(['en', 'fr'] as const)(
    'has a %s message for every reason code the server sends',
    (language) => {
      const missing = KNOWN_REASONS.filter((reason) => {
        const key = reasonMessageKey(reason);
        return !key || !catalogues[language].get(key);
      });
      expect(missing).toEqual([]);
    },
  );

  it('has no message for unknown reasons (the server message shows instead)', () => {
    expect(reasonMessageKey('SOMETHING_NEW')).toBeNull();
  });
});
