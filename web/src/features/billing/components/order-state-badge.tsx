import { StateBadge } from '@/components/ui/state-badge';
import type { OrderState } from '@/gen/repairs/billing/v1/billing_pb';
import { ORDER_STATES } from '../order-states';

/** An order's payment state as a coloured word. */
export const OrderStateBadge = ({ state }: { state: OrderState }) => (
  <StateBadge labels={ORDER_STATES} state={state} />
);
