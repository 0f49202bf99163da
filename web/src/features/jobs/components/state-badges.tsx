import { StateBadge } from '@/components/ui/state-badge';
import type { OrderState } from '@/gen/repairs/billing/v1/billing_pb';
import type { QuoteState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { ORDER_STATES } from '../order-states';
import { QUOTE_STATES } from '../quote-states';

/** A quote's state: awaiting decision, hired, not selected, withdrawn. */
export const QuoteStateBadge = ({ state }: { state: QuoteState }) => (
  <StateBadge labels={QUOTE_STATES} state={state} />
);

/** An order's payment state: held, captured, released, ... */
export const OrderStateBadge = ({ state }: { state: OrderState }) => (
  <StateBadge labels={ORDER_STATES} state={state} />
);
