import { QuoteState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import type { StateLabel } from '@/components/ui/state-badge';

/** Each state a quote can be in, as the professional who sent it reads it: key and colour. */
export const QUOTE_STATES = [
  { state: QuoteState.SUBMITTED, key: 'jobs.quoteStates.submitted', palette: 'blue' },
  { state: QuoteState.HIRED, key: 'jobs.quoteStates.hired', palette: 'green' },
  { state: QuoteState.NOT_SELECTED, key: 'jobs.quoteStates.notSelected', palette: 'gray' },
  { state: QuoteState.WITHDRAWN, key: 'jobs.quoteStates.withdrawn', palette: 'orange' },
  { state: QuoteState.RELEASED, key: 'jobs.quoteStates.released', palette: 'red' },
] as const;

/**
 * The same states as the customer who received the quote reads them: a quote that waits for
 * the customer waits for *them*, so it must not say "waiting for the customer".
 */
export const CUSTOMER_QUOTE_STATES: readonly StateLabel<QuoteState>[] = QUOTE_STATES.map((label) =>
  label.state === QuoteState.SUBMITTED
    ? { ...label, key: 'jobs.customerQuoteStates.submitted' }
    : label,
);
