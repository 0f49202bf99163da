import type { StateLabel } from '@/components/ui/state-badge';
import { DisputeState } from '@/gen/repairs/billing/v1/billing_pb';
import type { TranslationKey } from '@/lib/translation-key';

/** Each state a dispute can be in, with its catalogue key and colour. */
export const DISPUTE_STATES: readonly StateLabel<DisputeState>[] = [
  { state: DisputeState.NEEDS_RESPONSE, key: 'disputes.states.needsResponse', palette: 'red' },
  { state: DisputeState.UNDER_REVIEW, key: 'disputes.states.underReview', palette: 'yellow' },
  { state: DisputeState.WON, key: 'disputes.states.won', palette: 'green' },
  { state: DisputeState.LOST, key: 'disputes.states.lost', palette: 'gray' },
];

/** The bank's reasons as the gateway names them (Stripe's dispute reasons), in words. */
const REASON_WORDS: Record<string, TranslationKey> = {
  fraudulent: 'disputes.reasons.fraudulent',
  product_not_received: 'disputes.reasons.productNotReceived',
  product_unacceptable: 'disputes.reasons.productUnacceptable',
  duplicate: 'disputes.reasons.duplicate',
  credit_not_processed: 'disputes.reasons.creditNotProcessed',
  subscription_canceled: 'disputes.reasons.subscriptionCanceled',
  unrecognized: 'disputes.reasons.unrecognized',
  general: 'disputes.reasons.general',
  bank_cannot_process: 'disputes.reasons.bankCannotProcess',
  customer_initiated: 'disputes.reasons.customerInitiated',
  debit_not_authorized: 'disputes.reasons.debitNotAuthorized',
};

/** A text's key in one of these tables, or the fallback (a value the app does not know). */
const wordsOf = (table: Record<string, TranslationKey>, value: string, fallback: TranslationKey) =>
  Object.hasOwn(table, value) ? (table[value] ?? fallback) : fallback;

/** The words of a reason (they take {{code}}: an unknown one is "Other" with its code). */
export const reasonWords = (reason: string): TranslationKey =>
  wordsOf(REASON_WORDS, reason, 'disputes.reasons.other');

/** Who wrote a message of the conversation ("customer", "professional" or "admin"). */
const AUTHOR_WORDS: Record<string, TranslationKey> = {
  customer: 'disputes.authors.customer',
  professional: 'disputes.authors.professional',
  admin: 'disputes.authors.admin',
};

export const authorWords = (author: string): TranslationKey =>
  wordsOf(AUTHOR_WORDS, author, 'disputes.authors.other');
