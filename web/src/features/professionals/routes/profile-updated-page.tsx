import { HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { LinkButton } from '@/components/ui/links';
import { PROFESSIONAL_DASHBOARD_PATH } from '@/features/accounts';

/**
 * /profile-updated: the spec's confirmation that the professional's profile was saved, with
 * the way to their profile and to the dashboard.
 */
export function ProfileUpdatedPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="5" align="start">
      <PageTitle title={t('pages.profileUpdated')} />
      <Text fontSize="lg" role="status">
        {t('professionalProfile.saved')}
      </Text>
      <Text>{t('dashboard.profileUpdatedBody')}</Text>
      <HStack gap="3" wrap="wrap">
        <LinkButton to="/view-professional-profile" colorPalette="brand">
          {t('pages.viewProfessionalProfile')}
        </LinkButton>
        <LinkButton to={PROFESSIONAL_DASHBOARD_PATH} variant="outline">
          {t('pages.professionalDashboard')}
        </LinkButton>
      </HStack>
    </Stack>
  );
}
