import { describe, expect, it } from 'vitest';
import { Language as ProtoLanguage } from '@/gen/repairs/type/v1/common_pb';
import {
  englishPath,
  pageLanguage,
  parseLanguage,
  pathInLanguage,
  readStoredLanguage,
  storeLanguage,
} from './language';
import { toProtoLanguage } from './proto-language';
import { createMemoryStore } from './storage';

describe('stored language', () => {
  it("is English unless 'fr' is stored under `lang`", () => {
    const store = createMemoryStore();
    expect(readStoredLanguage(store)).toBe('en');
    storeLanguage(store, 'fr');
    expect(store.getItem('lang')).toBe('fr');
    expect(readStoredLanguage(store)).toBe('fr');
    expect(parseLanguage('eng')).toBe('en');
    expect(parseLanguage('FR')).toBe('en');
  });
});

describe('pathInLanguage', () => {
  it.each([
    ['/', 'fr', '/fr'],
    ['/professional', 'fr', '/fr/professional'],
    ['/login', 'fr', '/fr/login'],
    ['/register-as-professional', 'fr', '/fr/register-as-professional'],
    ['/fr', 'en', '/'],
    ['/fr/professional', 'en', '/professional'],
    ['/fr/login', 'fr', '/fr/login'],
    ['/login', 'en', '/login'],
    ['/contact', 'fr', '/contact'],
    ['/user-dashboard', 'en', '/user-dashboard'],
    ['/fr/unknown', 'en', '/fr/unknown'],
  ] as const)('%s in %s is %s', (path, language, expected) => {
    expect(pathInLanguage(path, language)).toBe(expected);
  });

  it('strips the French prefix', () => {
    expect(englishPath('/fr')).toBe('/');
    expect(englishPath('/fr/login')).toBe('/login');
    expect(englishPath('/french-fries')).toBe('/french-fries');
  });
});

describe('pageLanguage', () => {
  it('is French under /fr whatever is stored', () => {
    expect(pageLanguage('/fr', 'en')).toBe('fr');
    expect(pageLanguage('/fr/professional', 'en')).toBe('fr');
  });

  it('follows the stored language elsewhere', () => {
    expect(pageLanguage('/contact', 'fr')).toBe('fr');
    expect(pageLanguage('/', 'en')).toBe('en');
    expect(pageLanguage('/frequently-asked', 'en')).toBe('en');
  });
});

it('maps languages to the contract enum', () => {
  expect(toProtoLanguage('en')).toBe(ProtoLanguage.EN);
  expect(toProtoLanguage('fr')).toBe(ProtoLanguage.FR);
});
