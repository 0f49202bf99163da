import { StateBadge } from '@/components/ui/state-badge';
import type { QuoteState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { QUOTE_STATES } from '../quote-states';

/** A quote's state as a coloured word. */
export const QuoteStateBadge = ({ state }: { state: QuoteState }) => (
  <StateBadge labels={QUOTE_STATES} state={state} />
);
