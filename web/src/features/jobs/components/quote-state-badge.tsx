import { StateBadge } from '@/components/ui/state-badge';
import type { QuoteState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { CUSTOMER_QUOTE_STATES, QUOTE_STATES } from '../quote-states';

/** A quote's state as a coloured word, said from the side of who reads it. */
export const QuoteStateBadge = ({
  state,
  reader,
}: {
  state: QuoteState;
  reader: 'customer' | 'professional';
}) => (
  <StateBadge labels={reader === 'customer' ? CUSTOMER_QUOTE_STATES : QUOTE_STATES} state={state} />
);
