import { RepairRequestState } from '@/gen/repairs/marketplace/v1/marketplace_pb';

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
