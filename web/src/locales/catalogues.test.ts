import { describe, expect, it } from 'vitest';
import { ErrorReasonSchema } from '@/gen/repairs/errors/v1/errors_pb';
import { createI18n } from '@/lib/i18n';
import { CLIENT_REASONS, KNOWN_REASONS, reasonMessageKey } from '@/lib/error-reasons';
import { centsToDollarsText, parseDollars } from '@/lib/money';
import en from './en.json';
import fr from './fr.json';
import glossary from './glossary.json';
import { breakablePhonesAndPostalCodes, frenchTypographyProblems } from './french-typography';

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
  [...text.matchAll(/{{\s*(\w+)\s*(?:,[^}]*)?}}/g)].map((m) => m[1]).sort();

const catalogues = { en: leaves(en), fr: leaves(fr) };

/** A glossary word as a pattern: whole words only, any case; a trailing * allows any ending. */
function avoidPattern(word: string): RegExp {
  const stem = word.replace(/\*$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const end = word.endsWith('*') ? '' : '(?!\\p{L})';
  return new RegExp(`(?<!\\p{L})${stem}${end}`, 'iu');
}

/**
 * The texts that speak of a feminine thing of the glossary, alone on a label or a state, so
 * that their past participle has no noun beside it to agree with: "Envoyée le" heads the
 * column of dates a soumission was sent.
 */
const FEMININE_THINGS: [keyOrPrefix: string, thing: string][] = [
  ['jobs.quoteStates', 'soumission'],
  ['jobs.customerQuoteStates', 'soumission'],
  ['jobs.columns.quoted', 'soumission'],
  ['jobs.columns.closed', 'soumission'],
  ['jobs.sent', 'soumission'],
  ['requests.placed', 'demande'],
  ['requests.open.placed', 'demande'],
];

/** The masculine forms of the participles said of soumissions and demandes. */
const MASCULINE_PARTICIPLE =
  /(?<!\p{L})(?:envoyé|retiré|choisi|engagé|fermé|publié|expiré|annulé|terminé|reçu|accepté|refusé)s?(?!\p{L})/iu;

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

  it.each([
    ['en', 'less than 1 km', 'about 12 km'],
    ['fr', 'moins de 1\u00a0km', 'environ 12 km'],
  ] as const)(
    'says a distance under a kilometre as such in %s, never "0 km"',
    (language, near, far) => {
      const i18n = createI18n(language, document.createElement('html'));
      expect(i18n.t('requests.open.distanceKm', { count: 0 })).toBe(near);
      expect(i18n.t('requests.open.distanceKm', { count: 12 }).replace('\u00a0', ' ')).toBe(
        far.replace('\u00a0', ' '),
      );
    },
  );

  it('uses the same placeholders in both languages', () => {
    const different = [...catalogues.en].filter(
      ([key, text]) =>
        placeholders(text).join() !== placeholders(catalogues.fr.get(key) ?? '').join(),
    );
    expect(different).toEqual([]);
  });

  it.each(['en', 'fr'] as const)(
    '%s asks i18next to format nothing: the code formats values (lib/i18n.ts, countFigures)',
    (language) => {
      const formatted = [...catalogues[language]].filter(([, text]) =>
        /{{[^}]*,[^}]*}}/.test(text),
      );
      expect(formatted).toEqual([]);
    },
  );

  it.each(['en', 'fr'] as const)('%s uses one word per thing (glossary.json)', (language) => {
    const avoid = glossary.avoid[language].map((word) => avoidPattern(word));
    const offending = [...catalogues[language]].flatMap(([key, text]) =>
      avoid.filter((pattern) => pattern.test(text)).map((pattern) => `${key}: ${pattern.source}`),
    );
    expect(offending).toEqual([]);
  });

  it.each([
    ['Envoyée le', true],
    ['Envoyé le', false],
    ['Retirée', true],
    ['Retiré', false],
    ['Non choisie', true],
    ['Non choisi', false],
  ])('agrees with a feminine thing: %j is %s', (text, agrees) => {
    expect(MASCULINE_PARTICIPLE.test(text)).toBe(!agrees);
  });

  it('makes the past participles agree with a soumission (fem.): Envoyée le, Retirée', () => {
    const masculine = FEMININE_THINGS.flatMap(([prefix, thing]) =>
      [...catalogues.fr]
        .filter(([key]) => key === prefix || key.startsWith(`${prefix}.`))
        .filter(([, text]) => MASCULINE_PARTICIPLE.test(text))
        .map(([key, text]) => `${key} (${thing}): ${text}`),
    );
    const anywhere = [...catalogues.fr]
      .filter(([, text]) =>
        new RegExp(`soumissions?\\s+${MASCULINE_PARTICIPLE.source}`, 'iu').test(text),
      )
      .map(([key, text]) => `${key}: ${text}`);
    expect([...masculine, ...anywhere]).toEqual([]);
  });

  it.each(['en', 'fr'] as const)(
    '%s writes the amounts it gives as examples as its fee fields show them (30,00 in French)',
    (language) => {
      const examples = [...catalogues[language]].flatMap(([key, text]) =>
        [...text.matchAll(/\d{1,3}(?:[\u00a0,]\d{3})*[.,]\d{2}(?!\d)/g)].map(([amount]) => ({
          key,
          amount,
        })),
      );
      expect(examples.length).toBeGreaterThanOrEqual(4);
      const shown = ({ amount }: { amount: string }) => {
        const cents = parseDollars(amount, language);
        return cents === null ? null : centsToDollarsText(cents, language);
      };
      expect(examples.filter((example) => shown(example) !== example.amount)).toEqual([]);
    },
  );

  it.each(['en', 'fr'] as const)(
    '%s never lets a phone number or postal code break',
    (language) => {
      const breakable = [...catalogues[language]].flatMap(([key, text]) =>
        breakablePhonesAndPostalCodes(text).map((found) => `${key}: ${found}`),
      );
      expect(breakable).toEqual([]);
    },
  );

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

describe('error reasons of the contract (repairs.errors.v1.ErrorReason)', () => {
  // What the server sends: each value's name without its prefix (read from the descriptor, not
  // from the names protobuf-es gives the values, which error-reasons.ts relies on).
  const sent = ErrorReasonSchema.values
    .filter((value) => value.number !== 0)
    .map((value) => value.name.replace(/^ERROR_REASON_/, ''));

  it('names each value in the generated code as it travels', () => {
    expect(sent.length).toBeGreaterThan(100);
    expect(
      ErrorReasonSchema.values.filter((value) => value.name !== `ERROR_REASON_${value.localName}`),
    ).toEqual([]);
  });

  it('is the list of reasons the app knows, with those it gives errors without a reason', () => {
    expect([...KNOWN_REASONS].sort()).toEqual([...sent, ...CLIENT_REASONS].sort());
    expect(sent.filter((reason) => (CLIENT_REASONS as readonly string[]).includes(reason))).toEqual(
      [],
    );
  });

  it.each(['en', 'fr'] as const)('has a %s text for every reason', (language) => {
    const missing = sent.filter((reason) => !catalogues[language].get(`errors.reasons.${reason}`));
    expect(missing).toEqual([]);
  });

  it('has no text for a reason that is neither sent nor given by the app', () => {
    const reasons = Object.keys(en.errors.reasons);
    expect(
      reasons.filter((reason) => !(KNOWN_REASONS as readonly string[]).includes(reason)),
    ).toEqual([]);
  });
});

describe('French typography', () => {
  it.each([
    ["Réparations d'urgence", 'straight apostrophe (use ’)'],
    ['Port d’attache : adresse', 'colon without a no-break space before it'],
    ['Port d’attache: adresse', 'colon without a no-break space before it'],
    ['Profil mis à jour !', 'space before ; ! or ? (none in Quebec usage)'],
    ['Profil mis à jour\u00a0?', 'space before ; ! or ? (none in Quebec usage)'],
    ['le mot «urgence»', '« » without no-break spaces inside'],
    ['98 %', 'breaking space before % $ or €'],
    [
      'Entrez un code postal comme T2P 1J9.',
      'phone number or postal code that can break across lines',
    ],
    ['Appelez le 403-555-0199.', 'phone number or postal code that can break across lines'],
    ['Comme 514 555 0100.', 'phone number or postal code that can break across lines'],
    ['5000 caractères au plus', 'figure without no-break spaces between thousands (5 000)'],
    ['100 000 au plus', 'figure without no-break spaces between thousands (5 000)'],
    ['Entrez un montant, comme 30.00.', 'decimal point (French writes 30,00)'],
    ['Lundi', 'capitalised day or month name (lundi, janvier)'],
    ['Disponible le Mardi', 'capitalised day or month name (lundi, janvier)'],
    ['Virement du 20 Novembre', 'capitalised day or month name (lundi, janvier)'],
    ['Pause jusqu’au 1 janvier', 'the first of a month without 1er'],
    ['Payé le 1\u00a0déc. 2026', 'the first of a month without 1er'],
  ])('refuses %j', (text, problem) => {
    expect(frenchTypographyProblems(text)).toContain(problem);
  });

  it.each([
    'Réparations d’urgence',
    'Port d’attache\u00a0: adresse',
    'Profil mis à jour avec succès!',
    'Entrez une heure au format HH:MM, comme 08:30.',
    'le mot «\u00a0urgence\u00a0»',
    '98\u00a0%',
    'Entrez un code postal comme T2P\u00a01J9.',
    'Comme 514\u00a0555\u00a00100 ou 98765\u00a043210.',
    'Entrez un montant, comme 30,00 (100\u00a0000 au plus).',
    '5\u202f000 caractères au plus',
    'Pause jusqu’à lundi 8 h',
    'Lundi prochain, le service reprend.',
    'Fin de la garde. Mardi, reprise.',
    'Pause jusqu’au 1er janvier; virement du 21 janvier, du 11 déc.',
    'Code à 4 chiffres, de 1 à 500 km, 24/7, 911, 3-D Secure',
  ])('accepts %j', (text) => {
    expect(frenchTypographyProblems(text)).toEqual([]);
  });

  it('holds in every text of the French catalogue', () => {
    const bad = [...catalogues.fr]
      .map(([key, text]) => [key, frenchTypographyProblems(text)] as const)
      .filter(([, problems]) => problems.length > 0);
    expect(bad).toEqual([]);
  });
});
