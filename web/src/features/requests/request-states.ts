import { RepairRequestState } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { REQUEST_PATHS } from './paths';

/** Each state a request can be in, with its catalogue key and colour. */
export const REQUEST_STATES = [
  { state: RepairRequestState.OPEN, key: 'requests.states.open', palette: 'green' },
  { state: RepairRequestState.HIRED, key: 'requests.states.hired', palette: 'blue' },
  { state: RepairRequestState.COMPLETED, key: 'requests.states.completed', palette: 'gray' },
  { state: RepairRequestState.CANCELLED, key: 'requests.states.cancelled', palette: 'red' },
  { state: RepairRequestState.EXPIRED, key: 'requests.states.expired', palette: 'orange' },
  {
    state: RepairRequestState.PENDING_PAYMENT,
    key: 'requests.states.pendingPayment',
    palette: 'yellow',
  },
] as const;

/**
 * The customer's list each state puts a request in (where its page leads back to), with the
 * back link's words: open ones are pending, hired ones (and those whose hire waits on the
 * card) active, completed ones completed; cancelled and expired ones are in no list.
 */
export function requestListOf(state: RepairRequestState) {
  switch (state) {
    case RepairRequestState.OPEN:
      return { to: REQUEST_PATHS.pending, words: 'requests.backToPending' } as const;
    case RepairRequestState.HIRED:
    case RepairRequestState.PENDING_PAYMENT:
      return { to: REQUEST_PATHS.active, words: 'requests.backToActive' } as const;
    case RepairRequestState.COMPLETED:
      return { to: REQUEST_PATHS.completed, words: 'requests.backToCompleted' } as const;
    default:
      return { to: REQUEST_PATHS.dashboard, words: 'requests.backToDashboard' } as const;
  }
}
