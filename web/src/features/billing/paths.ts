/** The billing screens' paths that other screens link or go to. */
export const COUPON_LIST_PATH = '/admin/coupon-list';
export const CREATE_COUPON_PATH = '/admin/create-coupon';

/** The hire's screens and where they lead (the specs' route table). */
export const HIRE_PATHS = {
  hired: '/hired-successfully',
  quote: (quoteId: string) => `/view-application/${encodeURIComponent(quoteId)}`,
  activeRequests: '/user-active-requests',
  orderHistory: '/user-order-history',
} as const;
