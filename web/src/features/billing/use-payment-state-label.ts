import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { PaymentState } from '@/gen/repairs/billing/v1/billing_pb';
import type { TranslationKey } from '@/lib/translation-key';

const LABELS: Record<PaymentState, TranslationKey> = {
  [PaymentState.UNSPECIFIED]: 'checkout.states.unknown',
  [PaymentState.REQUIRES_ACTION]: 'checkout.states.requiresAction',
  [PaymentState.AUTHORIZED]: 'checkout.states.authorized',
  [PaymentState.CAPTURED]: 'checkout.states.captured',
  [PaymentState.CANCELED]: 'checkout.states.canceled',
  [PaymentState.EXPIRED]: 'checkout.states.expired',
  [PaymentState.FAILED]: 'checkout.states.failed',
  [PaymentState.REFUNDED]: 'checkout.states.refunded',
  [PaymentState.DISPUTED]: 'checkout.states.disputed',
  [PaymentState.CHARGED_BACK]: 'checkout.states.chargedBack',
};

/** A payment's state in the reader's language. */
export function usePaymentStateLabel() {
  const { t } = useTranslation();
  return useCallback(
    (state: PaymentState) => t(LABELS[state] ?? LABELS[PaymentState.UNSPECIFIED]),
    [t],
  );
}
