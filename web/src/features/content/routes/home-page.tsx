import { useTranslation } from 'react-i18next';
import { DocumentTitle } from '@/components/page-title';
import { useLanguage } from '@/lib/use-language';
import { useHomePage } from '../api/get-home-page';
import { useServiceCatalogue } from '../api/list-services';
import { Banner } from '../components/banner';
import { FiguresSection } from '../components/figures-section';
import { GuideSection } from '../components/guide-section';
import { ServicesSection } from '../components/services-section';

/** The customers' landing page, / and /fr. */
export function HomePage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const page = useHomePage(language);
  const services = useServiceCatalogue(language);

  return (
    <>
      <DocumentTitle title={t('app.tagline')} />
      <Banner
        title={page.bannerH1}
        lead={page.bannerH2}
        body={page.bannerH3}
        cta={{ label: page.bannerLink, to: '/create-request' }}
      />
      <ServicesSection
        heading={page.servicesHeading}
        description={page.servicesDescription}
        services={services}
      />
      <FiguresSection
        heading={page.section1Heading}
        description={page.section1Description}
        link={{ label: page.section1Link, to: '/register' }}
      />
      <GuideSection
        heading={page.howHeading}
        description={page.howDescription}
        steps={[page.how1, page.how2, page.how3].filter((step) => step !== undefined)}
      />
    </>
  );
}
