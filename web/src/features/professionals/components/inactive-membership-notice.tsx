import { Alert } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '@/components/ui/links';

/** 'Your membership is inactive', with the Buy Membership link of the professional. */
export function InactiveMembershipNotice({ professionalId }: { professionalId: string }) {
  const { t } = useTranslation();
  return (
    <Alert.Root status="warning" role="status" alignItems="center" flexWrap="wrap" gap="3">
      <Alert.Indicator />
      <Alert.Content flex="1" minW="48">
        <Alert.Title>{t('membership.inactiveTitle')}</Alert.Title>
        <Alert.Description>{t('membership.inactiveBody')}</Alert.Description>
      </Alert.Content>
      <LinkButton
        to={`/purchase-membership/${encodeURIComponent(professionalId)}`}
        colorPalette="accent"
        size="sm"
      >
        {t('membership.buy')}
      </LinkButton>
    </Alert.Root>
  );
}
