import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { HomePageSchema } from '@/gen/repairs/content/v1/content_pb';
import en from '@/locales/en.json';
import { pageFromCatalogue, withDefaults } from './page-texts';

describe('page texts', () => {
  const defaults = pageFromCatalogue(HomePageSchema, en.home);

  it('reads the catalogue section by proto field names, ignoring keys the contract lacks', () => {
    expect(defaults.bannerH1).toBe(en.home.banner_h1);
    expect(defaults.section1Link).toBe(en.home.section_1_link);
    expect(defaults.how2?.heading).toBe(en.home.how_2.heading);
  });

  it('keeps the defaults while there is no reply', () => {
    expect(withDefaults(HomePageSchema, defaults, undefined)).toBe(defaults);
  });

  it("takes every field the server filled in and the defaults' for the rest", () => {
    const fromServer = create(HomePageSchema, {
      bannerH1: 'From the server',
      how1: { heading: 'Only step', description: 'Call us' },
    });
    const page = withDefaults(HomePageSchema, defaults, fromServer);
    expect(page.bannerH1).toBe('From the server');
    expect(page.how1?.heading).toBe('Only step');
    expect(page.how2?.heading).toBe(en.home.how_2.heading);
    expect(page.bannerH2).toBe(en.home.banner_h2);
    expect(page.servicesHeading).toBe(en.home.services_heading);
    // The defaults themselves are left untouched.
    expect(defaults.bannerH1).toBe(en.home.banner_h1);
  });
});
