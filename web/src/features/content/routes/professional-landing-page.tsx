import { useTranslation } from 'react-i18next';
import { DocumentTitle } from '@/components/page-title';
import { useLanguage } from '@/lib/use-language';
import { useProfessionalPage } from '../api/get-professional-page';
import { useServiceCatalogue } from '../api/list-services';
import { Banner } from '../components/banner';
import { BannerBottom } from '../components/banner-bottom';
import { GuideSection } from '../components/guide-section';
import { MembershipOffer } from '../components/membership-offer';
import { ServicesSection } from '../components/services-section';
import { useMembershipPriceText } from '../membership';

/** The professionals' landing page, /professional and /fr/professional. */
export function ProfessionalLandingPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const page = useProfessionalPage(language);
  const services = useServiceCatalogue(language);
  const signUp = '/register-as-professional';
  const logIn = '/login-as-professional';
  const price = useMembershipPriceText();

  return (
    <>
      <DocumentTitle title={t('pages.professionalLanding')} />
      <Banner
        title={page.bannerH1}
        body={page.bannerH3}
        cta={{ label: page.bannerLink, to: signUp }}
      >
        <BannerBottom
          heading={page.bannerBottomHeading}
          link={{ label: page.bannerBottomLink, to: logIn }}
        />
      </Banner>
      <ServicesSection
        heading={page.servicesHeading}
        description={page.servicesDescription}
        services={services}
      />
      <GuideSection
        heading={t('professionalPage.how.heading')}
        description={t('professionalPage.how.description')}
        steps={t('professionalPage.how.steps', { returnObjects: true })}
      />
      <MembershipOffer
        heading={page.section1Heading}
        description={page.section1Description}
        price={price}
        note={t('professionalPage.membership.note')}
        buy={{ label: page.section1Link, to: logIn }}
      />
    </>
  );
}
