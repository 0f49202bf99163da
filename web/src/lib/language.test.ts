import { describe, expect, it } from 'vitest';
import { Language as ProtoLanguage } from '@/gen/repairs/type/v1/common_pb';
import {
  browserLanguage,
  englishPath,
  isFrenchPath,
  pageLanguage,
  parseLanguage,
  pathInLanguage,
  preferredLanguage,
  readStoredLanguage,
  storeLanguage,
} from './language';
import { toProtoLanguage } from './proto-language';
import { createMemoryStore } from './storage';

describe('stored language', () => {
  it("is what was stored under `lang`, 'en' or 'fr', else none", () => {
    const store = createMemoryStore();
    expect(readStoredLanguage(store)).toBeNull();
    storeLanguage(store, 'fr');
    expect(store.getItem('lang')).toBe('fr');
    expect(readStoredLanguage(store)).toBe('fr');
    store.setItem('lang', 'FR');
    expect(readStoredLanguage(store)).toBeNull();
    expect(parseLanguage('eng')).toBe('en');
    expect(parseLanguage('FR')).toBe('en');
  });
});

describe('preferred language', () => {
  it('is the stored choice, whatever the browser says', () => {
    expect(preferredLanguage(createMemoryStore({ lang: 'en' }), ['fr-CA'])).toBe('en');
    expect(preferredLanguage(createMemoryStore({ lang: 'fr' }), ['en-CA'])).toBe('fr');
  });

  it("is the browser's without a stored choice", () => {
    expect(preferredLanguage(createMemoryStore(), ['fr-CA', 'en'])).toBe('fr');
    expect(preferredLanguage(createMemoryStore(), ['en-CA', 'fr'])).toBe('en');
  });

  it("takes the browser's first language the product speaks, else English", () => {
    expect(browserLanguage(['de-DE', 'FR', 'en'])).toBe('fr');
    expect(browserLanguage(['es'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
  });
});

describe('pathInLanguage', () => {
  it.each([
    ['/', 'fr', '/fr'],
    ['/professional', 'fr', '/fr/professional'],
    ['/login', 'fr', '/fr/login'],
    ['/contact', 'fr', '/fr/contact'],
    ['/admin/professionals-list', 'fr', '/fr/admin/professionals-list'],
    ['/reset-password/u1/t1', 'fr', '/fr/reset-password/u1/t1'],
    ['/fr', 'en', '/'],
    ['/fr/professional', 'en', '/professional'],
    ['/fr/unknown', 'en', '/unknown'],
    ['/fr/login', 'fr', '/fr/login'],
    ['/login', 'en', '/login'],
    ['/user-dashboard', 'en', '/user-dashboard'],
  ] as const)('%s in %s is %s', (path, language, expected) => {
    expect(pathInLanguage(path, language)).toBe(expected);
  });

  it('keeps the query and the fragment', () => {
    expect(pathInLanguage('/stripe-connect?refresh=1', 'fr')).toBe('/fr/stripe-connect?refresh=1');
    expect(pathInLanguage('/?x=1#top', 'fr')).toBe('/fr?x=1#top');
    expect(pathInLanguage('/fr?x=1', 'en')).toBe('/?x=1');
    expect(pathInLanguage('/fr#top', 'fr')).toBe('/fr#top');
  });

  it('leaves what is not a path of the app as it is', () => {
    for (const target of ['#main-content', 'edit', '//example.ca/x', 'mailto:a@b.ca', '']) {
      expect(pathInLanguage(target, 'fr')).toBe(target);
    }
  });

  it('strips the French prefix', () => {
    expect(englishPath('/fr')).toBe('/');
    expect(englishPath('/fr/login')).toBe('/login');
    expect(englishPath('/french-fries')).toBe('/french-fries');
    expect(isFrenchPath('/french-fries')).toBe(false);
    expect(isFrenchPath('/fr?x=1')).toBe(true);
  });
});

describe('pageLanguage', () => {
  it('is French under /fr whatever is preferred', () => {
    expect(pageLanguage('/fr', 'en')).toBe('fr');
    expect(pageLanguage('/fr/professional', 'en')).toBe('fr');
  });

  it('follows the preferred language elsewhere', () => {
    expect(pageLanguage('/contact', 'fr')).toBe('fr');
    expect(pageLanguage('/', 'en')).toBe('en');
    expect(pageLanguage('/frequently-asked', 'en')).toBe('en');
  });
});

it('maps languages to the contract enum', () => {
  expect(toProtoLanguage('en')).toBe(ProtoLanguage.EN);
  expect(toProtoLanguage('fr')).toBe(ProtoLanguage.FR);
});
