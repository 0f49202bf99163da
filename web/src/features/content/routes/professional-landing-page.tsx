import { Container, Flex, Heading } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { DocumentTitle } from '@/components/page-title';
import { LinkButton } from '@/components/ui/links';
import { pathInLanguage } from '@/lib/language';
import { formatMoney } from '@/lib/money';
import { useLanguage } from '@/lib/use-language';
import { useProfessionalPage } from '../api/get-professional-page';
import { useServiceCatalogue } from '../api/list-services';
import { Banner } from '../components/banner';
import { GuideSection } from '../components/guide-section';
import { MembershipOffer } from '../components/membership-offer';
import { ServicesSection } from '../components/services-section';
import { MEMBERSHIP_MONTHLY_PRICE } from '../membership';

/** The professionals' landing page, /professional and /fr/professional. */
export function ProfessionalLandingPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const page = useProfessionalPage(language);
  const services = useServiceCatalogue(language);
  const signUp = pathInLanguage('/register-as-professional', language);
  const logIn = pathInLanguage('/login-as-professional', language);
  const price = formatMoney(
    MEMBERSHIP_MONTHLY_PRICE.amountCents,
    MEMBERSHIP_MONTHLY_PRICE.currency,
    language,
  );

  return (
    <>
      <DocumentTitle title={t('pages.professionalLanding')} />
      <Banner
        title={page.bannerH1}
        body={page.bannerH3}
        cta={{ label: page.bannerLink, to: signUp }}
      >
        <Container maxW="7xl" pb={{ base: '10', md: '14' }}>
          <Flex
            align="center"
            justify="space-between"
            wrap="wrap"
            gap="4"
            borderTopWidth="1px"
            borderColor="whiteAlpha.300"
            pt="6"
          >
            <Heading as="h2" size="lg">
              {page.bannerBottomHeading}
            </Heading>
            <LinkButton
              to={logIn}
              variant="outline"
              color="white"
              borderColor="white"
              _hover={{ bg: 'whiteAlpha.200' }}
            >
              {page.bannerBottomLink}
            </LinkButton>
          </Flex>
        </Container>
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
        price={t('professionalPage.membership.price', { price })}
        note={t('professionalPage.membership.note')}
        buy={{ label: page.section1Link, to: logIn }}
      />
    </>
  );
}
