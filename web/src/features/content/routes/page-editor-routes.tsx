import { useTranslation } from 'react-i18next';
import {
  HomePageSchema,
  ProfessionalPageSchema,
  type HomePage,
  type ProfessionalPage,
} from '@/gen/repairs/content/v1/content_pb';
import type { DescMessage, MessageShape } from '@bufbuild/protobuf';
import type { ComponentType } from 'react';
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import type { Language as ProtoLanguage } from '@/gen/repairs/type/v1/common_pb';
import { type Language } from '@/lib/language';
import { toProtoLanguage } from '@/lib/proto-language';
import type { TranslationKey } from '@/lib/translation-key';
import { useLanguage } from '@/lib/use-language';
import { useHomePageForEditing } from '../api/get-home-page';
import { useProfessionalPageForEditing } from '../api/get-professional-page';
import { useServiceCatalogue } from '../api/list-services';
import { useUpdateHomePage } from '../api/update-home-page';
import { useUpdateProfessionalPage } from '../api/update-professional-page';
import { Banner } from '../components/banner';
import { BannerBottom } from '../components/banner-bottom';
import { FiguresSection } from '../components/figures-section';
import { GuideSection } from '../components/guide-section';
import { MembershipOffer } from '../components/membership-offer';
import { PageEditor, type LoadedPage } from '../components/page-editor';
import { ServicesSection } from '../components/services-section';
import { useMembershipPriceText } from '../membership';
import {
  HOME_SECTIONS,
  PROFESSIONAL_SECTIONS,
  type EditorSection,
  type HomeSectionId,
  type ProfessionalSectionId,
} from '../page-editor/sections';
import { pageOf, valuesOf, type PageValues } from '../page-editor/values';

/** A page as read or saved (Get/Update*PageResponse). */
interface PageReply<Page> {
  page?: Page;
  etag: string;
  updateTime?: Timestamp;
}

/** A Get*Page query as the editor reads it. */
interface PageQuery<Page> {
  data?: PageReply<Page>;
  isPending: boolean;
  error: unknown;
  refetch(): Promise<{ data?: PageReply<Page> }>;
}

/** An Update*Page mutation as the editor calls it. */
interface PageUpdate<Page> {
  mutateAsync(request: {
    language: ProtoLanguage;
    page: Page;
    etag: string;
    updateMask: { paths: string[] };
  }): Promise<PageReply<Page>>;
}

/** The PageEditor props that read and save one page type in one language. */
function bindPage<Desc extends DescMessage, Id extends string>(
  schema: Desc,
  sections: EditorSection<Id>[],
  language: Language,
  query: PageQuery<MessageShape<Desc>>,
  update: PageUpdate<MessageShape<Desc>>,
) {
  const loaded = (reply: PageReply<MessageShape<Desc>>): LoadedPage => ({
    values: valuesOf(schema, reply.page, sections),
    etag: reply.etag,
    updateTime: reply.updateTime,
  });
  return {
    language,
    schema,
    sections,
    loaded: query.data && loaded(query.data),
    isPending: query.isPending,
    error: query.error,
    reload: async () => {
      const { data } = await query.refetch();
      return data && loaded(data);
    },
    save: async (values: PageValues, paths: string[], etag: string) =>
      loaded(
        await update.mutateAsync({
          language: toProtoLanguage(language),
          page: pageOf(schema, values),
          etag,
          updateMask: { paths },
        }),
      ),
  };
}

/** Where the preview's links would go: nowhere, the preview is not interactive. */
const NOWHERE = { to: '#' } as const;

function HomeSectionPreview({ section, page }: { section: HomeSectionId; page: HomePage }) {
  const services = useServiceCatalogue(useLanguage());
  switch (section) {
    case 'banner':
      return (
        <Banner
          preview
          title={page.bannerH1}
          lead={page.bannerH2}
          body={page.bannerH3}
          cta={{ ...NOWHERE, label: page.bannerLink }}
        />
      );
    case 'services':
      return (
        <ServicesSection
          heading={page.servicesHeading}
          description={page.servicesDescription}
          services={services}
        />
      );
    case 'figures':
      return (
        <FiguresSection
          heading={page.section1Heading}
          description={page.section1Description}
          link={{ ...NOWHERE, label: page.section1Link }}
        />
      );
    case 'guide':
      return (
        <GuideSection
          heading={page.howHeading}
          description={page.howDescription}
          steps={[page.how1, page.how2, page.how3].map((step) => ({
            heading: step?.heading ?? '',
            description: step?.description ?? '',
          }))}
        />
      );
  }
}

function ProfessionalSectionPreview({
  section,
  page,
}: {
  section: ProfessionalSectionId;
  page: ProfessionalPage;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const services = useServiceCatalogue(language);
  const price = useMembershipPriceText();
  switch (section) {
    case 'banner':
      return (
        <Banner
          preview
          title={page.bannerH1}
          body={page.bannerH3}
          cta={{ ...NOWHERE, label: page.bannerLink }}
        >
          <BannerBottom
            heading={page.bannerBottomHeading}
            link={{ ...NOWHERE, label: page.bannerBottomLink }}
          />
        </Banner>
      );
    case 'services':
      return (
        <ServicesSection
          heading={page.servicesHeading}
          description={page.servicesDescription}
          services={services}
        />
      );
    case 'membership':
      return (
        <MembershipOffer
          heading={page.section1Heading}
          description={page.section1Description}
          price={price}
          note={t('professionalPage.membership.note')}
          buy={{ ...NOWHERE, label: page.section1Link }}
        />
      );
  }
}

/** What tells one landing page's editor from the other's. */
interface LandingPage<Desc extends DescMessage, Id extends string> {
  schema: Desc;
  sections: EditorSection<Id>[];
  /** The editor's title per language of the page edited. */
  titles: Record<Language, TranslationKey>;
  /** The page as stored in a language (a Get*Page query). */
  useStored: (language: Language) => PageQuery<MessageShape<Desc>>;
  useUpdate: () => PageUpdate<MessageShape<Desc>>;
  /** A section of the landing page as the edited texts would show it. */
  Preview: ComponentType<{ section: Id; page: MessageShape<Desc> }>;
}

const HOME_PAGE: LandingPage<typeof HomePageSchema, HomeSectionId> = {
  schema: HomePageSchema,
  sections: HOME_SECTIONS,
  titles: { en: 'pages.adminHome', fr: 'pages.adminFrhome' },
  useStored: useHomePageForEditing,
  useUpdate: useUpdateHomePage,
  Preview: HomeSectionPreview,
};

const PROFESSIONAL_PAGE: LandingPage<typeof ProfessionalPageSchema, ProfessionalSectionId> = {
  schema: ProfessionalPageSchema,
  sections: PROFESSIONAL_SECTIONS,
  titles: { en: 'pages.adminPhome', fr: 'pages.adminFrphome' },
  useStored: useProfessionalPageForEditing,
  useUpdate: useUpdateProfessionalPage,
  Preview: ProfessionalSectionPreview,
};

function LandingEditor<Desc extends DescMessage, Id extends string>({
  page: { schema, sections, titles, useStored, useUpdate, Preview },
  language,
}: {
  page: LandingPage<Desc, Id>;
  language: Language;
}) {
  const { t } = useTranslation();
  const bound = bindPage(schema, sections, language, useStored(language), useUpdate());
  return (
    <PageEditor
      {...bound}
      title={t(titles[language])}
      preview={(section, values) => <Preview section={section} page={pageOf(schema, values)} />}
    />
  );
}

/** Which landing page an editor changes: the home page or the professional page. */
export type LandingPageKind = 'home' | 'professional';

/**
 * /admin/home, /admin/frhome (the home page) and /admin/phome, /admin/frphome (the
 * professional page): a landing page's texts in one language.
 */
export function LandingPageEditor({
  kind,
  language,
}: {
  kind: LandingPageKind;
  language: Language;
}) {
  // Each page has its own message type, so each kind is its own instance of the editor.
  return kind === 'home' ? (
    <LandingEditor page={HOME_PAGE} language={language} />
  ) : (
    <LandingEditor page={PROFESSIONAL_PAGE} language={language} />
  );
}
