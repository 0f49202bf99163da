/** The billing screens' paths that other screens link or go to. */
export const COUPON_LIST_PATH = '/admin/coupon-list';
export const CREATE_COUPON_PATH = '/admin/create-coupon';
