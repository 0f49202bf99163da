import { OrderState } from '@/gen/repairs/billing/v1/billing_pb';

/** Each state an order's payment can be in, with its catalogue key and colour. */
export const ORDER_STATES = [
  { state: OrderState.REQUIRES_ACTION, key: 'checkout.states.requiresAction', palette: 'yellow' },
  { state: OrderState.AUTHORIZED, key: 'checkout.states.authorized', palette: 'blue' },
  { state: OrderState.CAPTURED, key: 'checkout.states.captured', palette: 'green' },
  { state: OrderState.CANCELED, key: 'checkout.states.canceled', palette: 'gray' },
  { state: OrderState.EXPIRED, key: 'checkout.states.expired', palette: 'orange' },
  { state: OrderState.FAILED, key: 'checkout.states.failed', palette: 'red' },
  { state: OrderState.REFUNDED, key: 'checkout.states.refunded', palette: 'purple' },
  { state: OrderState.DISPUTED, key: 'checkout.states.disputed', palette: 'red' },
  { state: OrderState.CHARGED_BACK, key: 'checkout.states.chargedBack', palette: 'gray' },
] as const;
