import { HStack, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { LinkButton } from '@/components/ui/links';
import {
  CloseAccountSection,
  DataExportSection,
  DeviceAlertsSwitch,
  NotificationPreferences,
  PROFESSIONAL_PROFILE_FORM_PATH,
} from '@/features/accounts';
import { ProfessionalDetails } from '../components/professional-details';
import { ReviewList } from '../components/review-list';
import { useProfessionalAccount } from '../professional-context';

/**
 * /view-professional-profile: the professional's own profile and licences, with an edit link,
 * what reaches them (by email, text and device alerts), the reviews customers wrote of
 * their work (where the review emails send them), a copy of their data, and closing their
 * account.
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
          <NotificationPreferences />
          <ProfessionalDetails professional={professional} />
          <ReviewList professionalId={professional.id} />
          <DataExportSection />
          <CloseAccountSection role="professional" />
        </>
      ) : (
        <RouteLoader />
      )}
    </Stack>
  );
}
