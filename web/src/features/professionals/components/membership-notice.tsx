import { Alert, Text } from '@chakra-ui/react';
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '@/components/ui/links';
import { useDateFormat } from '@/lib/use-date-format';
import { purchaseMembershipPath } from '../membership';

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
      <LinkButton to={purchaseMembershipPath(professionalId)} colorPalette="accent" size="sm">
        {t('membership.buy')}
      </LinkButton>
    </Alert.Root>
  );
}

interface MembershipStatusProps {
  professionalId: string;
  active: boolean;
  expireTime?: Timestamp;
}

/** The professional's membership: until when it is paid, or the inactive notice. */
export function MembershipStatus({ professionalId, active, expireTime }: MembershipStatusProps) {
  const { t } = useTranslation();
  const formatEnd = useDateFormat('long');
  if (!active) return <InactiveMembershipNotice professionalId={professionalId} />;
  if (!expireTime) return null;
  return <Text>{t('membership.activeUntil', { date: formatEnd(expireTime) })}</Text>;
}
