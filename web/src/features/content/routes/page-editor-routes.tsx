import { useTranslation } from 'react-i18next';
import {
  HomePageSchema,
  ProfessionalPageSchema,
  type HomePage,
  type ProfessionalPage,
} from '@/gen/repairs/content/v1/content_pb';
import type { DescMessage, MessageShape } from '@bufbuild/protobuf';
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import type { Language as ProtoLanguage } from '@/gen/repairs/type/v1/common_pb';
import { toProtoLanguage, type Language } from '@/lib/language';
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
import { useMembershipPrice } from '../membership';
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

/** /admin/home and /admin/frhome: the home page's texts in one language. */
export function HomePageEditor({ language }: { language: Language }) {
  const { t } = useTranslation();
  const page = bindPage(
    HomePageSchema,
    HOME_SECTIONS,
    language,
    useHomePageForEditing(language),
    useUpdateHomePage(),
  );
  return (
    <PageEditor
      {...page}
      title={t(language === 'fr' ? 'pages.adminFrhome' : 'pages.adminHome')}
      preview={(section, values) => (
        <HomeSectionPreview section={section} page={pageOf(HomePageSchema, values)} />
      )}
    />
  );
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
  const price = useMembershipPrice();
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

/** /admin/phome and /admin/frphome: the professional landing page's texts in one language. */
export function ProfessionalPageEditor({ language }: { language: Language }) {
  const { t } = useTranslation();
  const page = bindPage(
    ProfessionalPageSchema,
    PROFESSIONAL_SECTIONS,
    language,
    useProfessionalPageForEditing(language),
    useUpdateProfessionalPage(),
  );
  return (
    <PageEditor
      {...page}
      title={t(language === 'fr' ? 'pages.adminFrphome' : 'pages.adminPhome')}
      preview={(section, values) => (
        <ProfessionalSectionPreview
          section={section}
          page={pageOf(ProfessionalPageSchema, values)}
        />
      )}
    />
  );
}
