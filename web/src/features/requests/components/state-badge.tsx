import { StateBadge } from '@/components/ui/state-badge';
import type { RepairRequestState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { REQUEST_STATES } from '../request-states';

/** A request's state as a coloured word. */
export const RequestStateBadge = ({ state }: { state: RepairRequestState }) => (
  <StateBadge states={REQUEST_STATES} state={state} />
);
