import { Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { RepairRequestReach } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/**
 * "N professionals alerted · M opened your request", in a polite live region: a screen
 * reader says the new counts when they change, without interrupting.
 */
export function RequestReach({ reach }: { reach?: RepairRequestReach }) {
  const { t } = useTranslation();
  return (
    <Text role="status" aria-live="polite" color="fg.muted">
      {reach &&
        t('requestReach.summary', {
          alerted: t('requestReach.alerted', { count: reach.professionalsAlerted }),
          opened: t('requestReach.opened', { count: reach.professionalsOpened }),
        })}
    </Text>
  );
}
