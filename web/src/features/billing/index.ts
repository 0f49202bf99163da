// The billing feature as the other features see it: the membership's price, a setting of the
// server. The app reaches the feature through ./routes.
export { useMembershipPrice } from './api/get-membership-price';
