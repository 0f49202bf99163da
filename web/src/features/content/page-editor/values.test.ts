import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { HomePageSchema } from '@/gen/repairs/content/v1/content_pb';
import { HOME_SECTIONS } from './sections';
import { dirtyPaths, pageOf, valuesOf } from './values';

describe('page editor values', () => {
  it('holds every field of the sections, nested steps included, empty where unset', () => {
    const page = create(HomePageSchema, {
      bannerH1: 'Fast repairs',
      how2: { heading: 'Compare' },
    });
    const values = valuesOf(HomePageSchema, page, HOME_SECTIONS);
    expect(values.banner_h1).toBe('Fast repairs');
    expect(values.banner_h2).toBe('');
    expect(values.how_2).toEqual({ heading: 'Compare', description: '' });
    expect(values.how_1).toEqual({ heading: '', description: '' });
    expect(Object.keys(values)).toHaveLength(14);
  });

  it('turns the values back into the page message', () => {
    const page = pageOf(HomePageSchema, {
      banner_h1: 'Vite',
      how_3: { heading: 'Payer', description: 'En ligne' },
    });
    expect(page.bannerH1).toBe('Vite');
    expect(page.how3?.description).toBe('En ligne');
  });

  it('names the changed fields as update mask paths', () => {
    expect(
      dirtyPaths({
        banner_h1: true,
        banner_h2: false,
        how_1: { heading: true, description: false },
      }),
    ).toEqual(['banner_h1', 'how_1.heading']);
  });
});
