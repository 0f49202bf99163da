// The billing feature as the other features see it: the membership's price, a setting of the
// server. The app reaches the feature through ./routes.
export { useMembershipPrice } from './api/get-membership-price';
// The receipts: a hired job's (the customer's request page) and any payment's path.
export { useJobReceiptPath } from './api/get-job-payment';
export { MONTHLY_STATEMENT_PATH, receiptPath } from './paths';
