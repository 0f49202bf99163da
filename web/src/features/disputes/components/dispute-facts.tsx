import { Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FactsList } from '@/components/ui/facts-list';
import { AppLink } from '@/components/ui/links';
import { StateBadge } from '@/components/ui/state-badge';
import { ADMIN_ORDER_HISTORY_PATH, TestModeBadge } from '@/features/billing';
import type { Dispute } from '@/gen/repairs/billing/v1/billing_pb';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { useMoneyFormat } from '@/lib/use-money-format';
import { DISPUTE_STATES, reasonWords } from '../dispute-words';

/**
 * What the gateway says of a dispute: its state, the amount, the bank's reason, the payment
 * (found in the order history), until when evidence is taken or when it was sent, and when it
 * was opened; 'TEST MODE' when no money moved.
 */
export function DisputeFacts({ dispute }: { dispute: Dispute }) {
  const { t } = useTranslation();
  const formatMoney = useMoneyFormat();
  const formatDateTime = useDateTimeFormat();
  const facts: [string, ReactNode][] = [
    [t('disputes.state'), <StateBadge labels={DISPUTE_STATES} state={dispute.state} />],
    [t('disputes.amount'), formatMoney(dispute.amount)],
    [t('disputes.reason'), t(reasonWords(dispute.reason), { code: dispute.reason })],
    [
      t('disputes.payment'),
      <Stack gap="0" align="start">
        <Text as="span" fontFamily="mono" overflowWrap="anywhere">
          {dispute.paymentId}
        </Text>
        <AppLink to={ADMIN_ORDER_HISTORY_PATH} color="brand.fg">
          {t('disputes.orderHistory')}
        </AppLink>
      </Stack>,
    ],
  ];
  if (dispute.evidenceDueTime) {
    facts.push([t('disputes.due'), formatDateTime(dispute.evidenceDueTime)]);
  }
  if (dispute.evidenceSubmitTime) {
    facts.push([t('disputes.sentOn'), formatDateTime(dispute.evidenceSubmitTime)]);
  }
  facts.push([t('disputes.opened'), formatDateTime(dispute.createTime)]);
  return (
    <Stack gap="3">
      {dispute.testMode && <TestModeBadge />}
      <FactsList facts={facts} />
    </Stack>
  );
}
