import type { TranslationKey } from '@/lib/translation-key';

/**
 * One text of a page: its proto field path (the legacy name) and whether it is long. Its
 * bound is the page message's `max_len` for that path (limitAt).
 */
export interface EditorField {
  path: string;
  labelKey: TranslationKey;
  /** A description (a text area) rather than a line. */
  long?: boolean;
}

/** A part of the landing page, edited and previewed together. */
export interface EditorSection<Id extends string = string> {
  id: Id;
  titleKey: TranslationKey;
  fields: EditorField[];
}

const step = (n: 1 | 2 | 3): EditorField[] => [
  { path: `how_${n}.heading`, labelKey: `pageEditor.fields.how_${n}.heading` },
  { path: `how_${n}.description`, labelKey: `pageEditor.fields.how_${n}.description`, long: true },
];

/** The services section, the same on both pages. */
const SERVICES_SECTION: EditorSection<'services'> = {
  id: 'services',
  titleKey: 'pageEditor.sections.services',
  fields: [
    { path: 'services_heading', labelKey: 'pageEditor.fields.services_heading' },
    {
      path: 'services_description',
      labelKey: 'pageEditor.fields.services_description',
      long: true,
    },
  ],
};

export type HomeSectionId = 'banner' | 'services' | 'figures' | 'guide';

/** The home page (HomePage), section by section, in the order the page shows them. */
export const HOME_SECTIONS: EditorSection<HomeSectionId>[] = [
  {
    id: 'banner',
    titleKey: 'pageEditor.sections.banner',
    fields: [
      { path: 'banner_h1', labelKey: 'pageEditor.fields.banner_h1' },
      { path: 'banner_h2', labelKey: 'pageEditor.fields.banner_h2' },
      { path: 'banner_h3', labelKey: 'pageEditor.fields.banner_h3', long: true },
      { path: 'banner_link', labelKey: 'pageEditor.fields.banner_link' },
    ],
  },
  SERVICES_SECTION,
  {
    id: 'figures',
    titleKey: 'pageEditor.sections.figures',
    fields: [
      { path: 'section_1_heading', labelKey: 'pageEditor.fields.section_1_heading' },
      {
        path: 'section_1_description',
        labelKey: 'pageEditor.fields.section_1_description',
        long: true,
      },
      { path: 'section_1_link', labelKey: 'pageEditor.fields.section_1_link' },
    ],
  },
  {
    id: 'guide',
    titleKey: 'pageEditor.sections.guide',
    fields: [
      { path: 'how_heading', labelKey: 'pageEditor.fields.how_heading' },
      { path: 'how_description', labelKey: 'pageEditor.fields.how_description', long: true },
      ...step(1),
      ...step(2),
      ...step(3),
    ],
  },
];

export type ProfessionalSectionId = 'banner' | 'services' | 'membership';

/** The professional landing page (ProfessionalPage), section by section. */
export const PROFESSIONAL_SECTIONS: EditorSection<ProfessionalSectionId>[] = [
  {
    id: 'banner',
    titleKey: 'pageEditor.sections.banner',
    fields: [
      { path: 'banner_h1', labelKey: 'pageEditor.fields.banner_h1' },
      { path: 'banner_h3', labelKey: 'pageEditor.fields.banner_h3', long: true },
      { path: 'banner_link', labelKey: 'pageEditor.fields.banner_link' },
      { path: 'banner_bottom_heading', labelKey: 'pageEditor.fields.banner_bottom_heading' },
      { path: 'banner_bottom_link', labelKey: 'pageEditor.fields.banner_bottom_link' },
    ],
  },
  SERVICES_SECTION,
  {
    id: 'membership',
    titleKey: 'pageEditor.sections.membership',
    fields: [
      { path: 'section_1_heading', labelKey: 'pageEditor.fields.membership_heading' },
      {
        path: 'section_1_description',
        labelKey: 'pageEditor.fields.membership_description',
        long: true,
      },
      { path: 'section_1_link', labelKey: 'pageEditor.fields.membership_link' },
    ],
  },
];
