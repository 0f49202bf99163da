import { HStack, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { LinkButton } from '@/components/ui/links';
import { DeviceAlertsSwitch, PROFESSIONAL_PROFILE_FORM_PATH } from '@/features/accounts';
import { ProfessionalDetails } from '../components/professional-details';
import { ReviewList } from '../components/review-list';
import { useProfessionalAccount } from '../professional-context';

/**
 * /view-professional-profile: the professional's own profile and licences, with an edit link,
 * and the reviews customers wrote of their work (where the review emails send them).
 */
export function OwnProfilePage() {
  const { t } = useTranslation();
  const { professional } = useProfessionalAccount();
  return (
    <Stack gap="6" maxW="4xl">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <PageTitle title={t('pages.viewProfessionalProfile')} />
        <LinkButton to={PROFESSIONAL_PROFILE_FORM_PATH} colorPalette="brand" variant="outline">
          {t('professionalDetails.edit')}
        </LinkButton>
      </HStack>
      {professional ? (
        <>
          <DeviceAlertsSwitch role="professional" />
          <ProfessionalDetails professional={professional} />
          <ReviewList professionalId={professional.id} />
        </>
      ) : (
        <RouteLoader />
      )}
    </Stack>
  );
}
