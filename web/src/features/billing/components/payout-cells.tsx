import { Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { StateBadge } from '@/components/ui/state-badge';
import { PayoutState, type Payout } from '@/gen/repairs/billing/v1/billing_pb';
import { useDateTimeFormat } from '@/lib/use-date-format';
import type { TranslationKey } from '@/lib/translation-key';
import { useMoneyFormat } from '@/lib/use-money-format';
import { useTaxLabel } from '@/lib/use-tax-text';
import { PAYOUT_STATES } from '../payout-states';

/** What a card dispute on the job does to its entry, said under the state. */
const DISPUTE_NOTES: Partial<Record<PayoutState, TranslationKey>> = {
  [PayoutState.HELD]: 'payouts.heldNote',
  [PayoutState.DISPUTE_LOST]: 'payouts.disputeLostNote',
};

/** An entry's state, and why a transfer waits (a failure, a dispute) or how it was paid by hand. */
export function EntryState({ payout }: { payout: Payout }) {
  const { t } = useTranslation();
  const formatDateTime = useDateTimeFormat();
  const disputeNote = DISPUTE_NOTES[payout.state];
  return (
    <Stack gap="1" align="start">
      <StateBadge labels={PAYOUT_STATES} state={payout.state} />
      {disputeNote && (
        <Text fontSize="sm" color="fg.muted">
          {t(disputeNote)}
        </Text>
      )}
      {payout.state === PayoutState.TRANSFER_FAILED && (
        <Text fontSize="sm" color="fg.muted">
          {t('payouts.retry', {
            count: payout.failedAttempts,
            time: formatDateTime(payout.nextAttemptTime),
          })}
        </Text>
      )}
      {payout.note && (
        <Text fontSize="sm" color="fg.muted">
          {t('payouts.byHand', { note: payout.note })}
        </Text>
      )}
    </Stack>
  );
}

/** A fee and, under it, each of its taxes (the professional's input tax credit). */
export function FeeWithTaxes({ payout }: { payout: Payout }) {
  const formatMoney = useMoneyFormat();
  const taxLabel = useTaxLabel();
  return (
    <Stack gap="0">
      <Text>{formatMoney(payout.platformFee)}</Text>
      {payout.platformFeeTaxes.map((tax) => (
        <Text key={tax.name} fontSize="sm" color="fg.muted">
          {taxLabel(tax.name, tax.ratePercent)} {formatMoney(tax.amount)}
        </Text>
      ))}
    </Stack>
  );
}
