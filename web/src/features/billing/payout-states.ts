import { PayoutAccountState, PayoutState } from '@/gen/repairs/billing/v1/billing_pb';
import type { TranslationKey } from '@/lib/translation-key';

/** Each state of a ledger entry, with its catalogue key and colour. */
export const PAYOUT_STATES = [
  { state: PayoutState.OWED, key: 'payouts.states.owed', palette: 'yellow' },
  { state: PayoutState.PAID, key: 'payouts.states.paid', palette: 'green' },
  { state: PayoutState.REVERSED, key: 'payouts.states.reversed', palette: 'gray' },
  { state: PayoutState.TRANSFER_FAILED, key: 'payouts.states.transferFailed', palette: 'red' },
  {
    state: PayoutState.REFUNDED_AFTER_PAYOUT,
    key: 'payouts.states.refundedAfterPayout',
    palette: 'orange',
  },
  { state: PayoutState.HELD, key: 'payouts.states.held', palette: 'red' },
  { state: PayoutState.DISPUTE_LOST, key: 'payouts.states.disputeLost', palette: 'gray' },
] as const;

/** What the page says of each state of the payout account. */
export const ACCOUNT_STATE_KEYS: Record<PayoutAccountState, TranslationKey> = {
  [PayoutAccountState.UNSPECIFIED]: 'payouts.account.notStarted',
  [PayoutAccountState.NOT_STARTED]: 'payouts.account.notStarted',
  [PayoutAccountState.PENDING]: 'payouts.account.pending',
  [PayoutAccountState.ENABLED]: 'payouts.account.enabled',
  [PayoutAccountState.TEST_LEDGER]: 'payouts.account.testLedger',
};

/** The entries an admin may mark paid by hand: owed, whether or not a transfer failed. */
export const OWED_STATES: readonly PayoutState[] = [PayoutState.OWED, PayoutState.TRANSFER_FAILED];
