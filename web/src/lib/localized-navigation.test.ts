import { describe, expect, it } from 'vitest';
import { localizedTo } from './localized-navigation';

describe('localizedTo', () => {
  it('puts a path, given as text or as parts, in the language', () => {
    expect(localizedTo('/contact?from=footer', 'fr')).toBe('/fr/contact?from=footer');
    expect(localizedTo({ pathname: '/login', search: '?x=1' }, 'fr')).toEqual({
      pathname: '/fr/login',
      search: '?x=1',
    });
    expect(localizedTo({ pathname: '/fr/login' }, 'en')).toEqual({ pathname: '/login' });
  });

  it('leaves a target without a path of its own as it is', () => {
    expect(localizedTo({ search: '?page=2' }, 'fr')).toEqual({ search: '?page=2' });
    expect(localizedTo('#main-content', 'fr')).toBe('#main-content');
  });
});
