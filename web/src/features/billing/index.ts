// The billing feature as the other features see it: the membership's price, a setting of the
// server. The app reaches the feature through ./routes.
export { useMembershipPrice } from './api/get-membership-price';
// The receipts: a hired job's (the customer's request page) and any payment's path; the
// admins' order history (a card dispute's payment is in it).
export { useJobReceiptPath } from './api/get-job-payment';
export { ADMIN_ORDER_HISTORY_PATH, MONTHLY_STATEMENT_PATH, receiptPath } from './paths';
// 'TEST MODE' on what the offline test gateway touched (a card dispute's page too).
export { TestModeBadge } from './components/test-mode-badge';
// The request_id of an admin's call that must not be made twice (a dispute's evidence).
export { useAttemptKey } from './attempt-key';
