import { afterEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGE_STORAGE_KEY } from '@/lib/language';
import { SESSION_KEYS } from '@/lib/session';
import { createMemoryStore } from '@/lib/storage';
import { fakeToken } from '@/test/render-app';
import { firstRenderIsServed } from './served-view';

const NOW = 1_767_225_600;

const envWith = (values: Record<string, string>) => ({
  store: createMemoryStore(values),
  now: () => NOW * 1000,
});

const signedInAs = (role: 'customer' | 'professional' | 'admin') => ({
  [SESSION_KEYS[role].token]: fakeToken({
    sub: 'account-1',
    role: role === 'customer' ? 'user' : role,
    iat: NOW - 60,
  }),
});

describe('firstRenderIsServed', () => {
  it.each([
    ['a signed-out visitor on an English page', {}, '/login', 'en', true],
    ['a signed-out visitor on a French page', {}, '/fr/login', 'fr', true],
    ['a French reader on an English page', { [LANGUAGE_STORAGE_KEY]: 'fr' }, '/', 'en', false],
    ['a French reader on a French page', { [LANGUAGE_STORAGE_KEY]: 'fr' }, '/fr', 'fr', true],
    ['a signed-in customer', signedInAs('customer'), '/', 'en', false],
    ['a signed-in professional', signedInAs('professional'), '/fr/professional', 'fr', false],
    ['a signed-in admin', signedInAs('admin'), '/login', 'en', false],
  ])('%s: %s', (_who, stored, path, served, expected) => {
    expect(firstRenderIsServed(envWith(stored), path, served)).toBe(expected);
  });

  describe('in a French browser', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it.each([
      ['without a choice, on an English page', {}, '/', 'en', false],
      ['without a choice, on a French page', {}, '/fr', 'fr', true],
      ['who chose English, on an English page', { [LANGUAGE_STORAGE_KEY]: 'en' }, '/', 'en', true],
    ])('a visitor %s: %s', (_who, stored, path, served, expected) => {
      vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-CA', 'en-CA']);
      expect(firstRenderIsServed(envWith(stored), path, served)).toBe(expected);
    });
  });
});
