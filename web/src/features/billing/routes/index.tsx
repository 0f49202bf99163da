/**
 * The billing screens (hiring, membership, orders, payouts, coupons, the test checkout) at
 * their paths, grouped by the place src/app/routes.tsx gives them behind its layouts and
 * guards.
 */
import type { RouteObject } from 'react-router';
import { page } from '@/lib/lazy-routes';

const load = {
  purchaseMembership: () =>
    import('./purchase-membership-page').then((m) => <m.PurchaseMembershipPage />),
  testCheckout: () => import('./test-checkout-page').then((m) => <m.TestCheckoutPage />),
};

export const billingRoutes = {
  customerArea: [
    page('/hire/:id', () => import('./hire-page').then((m) => <m.HirePage />)),
    page('/hired-successfully', () =>
      import('./hired-successfully-page').then((m) => <m.HiredSuccessfullyPage />),
    ),
    page('/user-order-history', () =>
      import('./user-order-history-page').then((m) => <m.UserOrderHistoryPage />),
    ),
  ],
  /** Open whatever the approval status. */
  professionalArea: [
    page('/stripe-connect', () =>
      import('./stripe-connect-page').then((m) => <m.StripeConnectPage />),
    ),
    page('/purchase-membership/:id', load.purchaseMembership),
    page('/purchase-membership', load.purchaseMembership),
    page('/membership-purchase', load.purchaseMembership),
    page('/monthly-statement', () =>
      import('./monthly-statement-page').then((m) => <m.MonthlyStatementPage />),
    ),
  ],
  /** The professional's orders: approved professionals only. */
  professionalWork: [
    page('/professional-order-history', () =>
      import('./professional-order-history-page').then((m) => <m.ProfessionalOrderHistoryPage />),
    ),
  ],
  adminArea: [
    page('/admin/order-history', () =>
      import('./admin-order-history-page').then((m) => <m.AdminOrderHistoryPage />),
    ),
    page('/admin/professional-payouts/:id', () =>
      import('./admin-professional-payouts-page').then((m) => <m.AdminProfessionalPayoutsPage />),
    ),
    page('/admin/coupon-list', () =>
      import('./coupon-list-page').then((m) => <m.CouponListPage />),
    ),
    page('/admin/create-coupon', () =>
      import('./create-coupon-page').then((m) => <m.CreateCouponPage />),
    ),
    page('/admin/checkout-page', load.testCheckout),
    // The specs list /block-card among the professional routes ("content not shown except the
    // test card page"), but a test hold moves money and the contract keeps CreateTestCharge for
    // admins: it is the admin's test checkout, behind the admin guard.
    page('/block-card', load.testCheckout),
    page('/admin/tax-report', () => import('./tax-report-page').then((m) => <m.TaxReportPage />)),
  ],
  /** Whoever is signed in, in their own area: a receipt's payer, its payee or an admin. */
  anySignedIn: [
    page('/receipts/:id', () => import('./receipt-page').then((m) => <m.ReceiptPage />)),
  ],
} satisfies Record<string, RouteObject[]>;
