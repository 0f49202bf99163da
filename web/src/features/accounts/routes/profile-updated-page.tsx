import { Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { LinkButton } from '@/components/ui/links';

/** /user-profile-updated: the customer's details were saved. */
export function ProfileUpdatedPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="5" align="start">
      <PageTitle title={t('pages.userProfileUpdated')} />
      <Text fontSize="lg" role="status">
        {t('account.updated')}
      </Text>
      <LinkButton to="/user-account-setting" colorPalette="brand" variant="outline">
        {t('account.backToProfile')}
      </LinkButton>
    </Stack>
  );
}
