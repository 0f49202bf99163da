import { AS_ROLE_PARAM, type Role } from '@/lib/session';

/** The billing screens' paths that other screens link or go to. */
export const COUPON_LIST_PATH = '/admin/coupon-list';
export const CREATE_COUPON_PATH = '/admin/create-coupon';
export const ADMIN_ORDER_HISTORY_PATH = '/admin/order-history';
/** The admin's view of an order's repair request (the requests feature's screen). */
export const adminRequestPath = (id: string) => `/admin/view-request/${encodeURIComponent(id)}`;

/** The hire's screens and where they lead (the specs' route table). */
export const HIRE_PATHS = {
  hired: '/hired-successfully',
  quote: (quoteId: string) => `/view-application/${encodeURIComponent(quoteId)}`,
  activeRequests: '/user-active-requests',
  orderHistory: '/user-order-history',
} as const;
/** The customer's view of an order's repair request (the requests feature's screen). */
export const customerRequestPath = (id: string) => `/user-view-request/${encodeURIComponent(id)}`;
/** The admin's screen of a professional (the admin feature's). */
export const adminProfessionalPath = (id: string) =>
  `/admin/view-professional/${encodeURIComponent(id)}`;

/**
 * A payment's printable receipt, opened with the session of `role` (the reader's area) when
 * given: /receipts/{paymentId}?as=professional.
 */
export const receiptPath = (paymentId: string, role?: Role) =>
  `/receipts/${encodeURIComponent(paymentId)}${role ? `?${AS_ROLE_PARAM}=${role}` : ''}`;
/** The professional's monthly statement. */
export const MONTHLY_STATEMENT_PATH = '/monthly-statement';
/** The admin's sales tax report. */
export const TAX_REPORT_PATH = '/admin/tax-report';
