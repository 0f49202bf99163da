import type { TranslationKey } from '@/lib/translation-key';

/** The three signed-in areas, each with its side menu. */
export type Area = 'customer' | 'professional' | 'admin';

export interface MenuLink {
  to: string;
  labelKey: TranslationKey;
  /** Hidden while a professional's profile waits for review (request and order links). */
  needsReviewedProfile?: boolean;
}

export interface MenuGroup {
  labelKey: TranslationKey;
  links: MenuLink[];
}

export type MenuEntry = MenuLink | MenuGroup;

export const isMenuGroup = (entry: MenuEntry): entry is MenuGroup => 'links' in entry;

/** The side menus, in the order of the specs. */
export const AREA_MENUS: Record<Area, MenuEntry[]> = {
  customer: [
    { to: '/user-dashboard', labelKey: 'pages.userDashboard' },
    { to: '/create-request', labelKey: 'pages.createRequest' },
    { to: '/pending-requests', labelKey: 'pages.pendingRequests' },
    { to: '/user-messages', labelKey: 'pages.userMessages' },
    { to: '/request-applications-list', labelKey: 'pages.requestApplicationsList' },
    { to: '/user-active-requests', labelKey: 'pages.userActiveRequests' },
    { to: '/user-completed-requests', labelKey: 'pages.userCompletedRequests' },
    { to: '/user-order-history', labelKey: 'pages.userOrderHistory' },
    { to: '/user-account-setting', labelKey: 'pages.userAccountSetting' },
    { to: '/user-logout', labelKey: 'pages.logout' },
  ],
  professional: [
    { to: '/professional-dashboard', labelKey: 'pages.professionalDashboard' },
    { to: '/request-list', labelKey: 'pages.requestList', needsReviewedProfile: true },
    {
      to: '/professional-messages',
      labelKey: 'pages.professionalMessages',
      needsReviewedProfile: true,
    },
    { to: '/applied-requests', labelKey: 'pages.appliedRequests', needsReviewedProfile: true },
    {
      to: '/professional-active-requests',
      labelKey: 'pages.professionalActiveRequests',
      needsReviewedProfile: true,
    },
    { to: '/completed-requests', labelKey: 'pages.completedRequests', needsReviewedProfile: true },
    {
      to: '/professional-order-history',
      labelKey: 'pages.professionalOrderHistory',
      needsReviewedProfile: true,
    },
    { to: '/stripe-connect', labelKey: 'pages.stripeConnect', needsReviewedProfile: true },
    { to: '/view-professional-profile', labelKey: 'pages.viewProfessionalProfile' },
    { to: '/update-professional-profile', labelKey: 'pages.updateProfessionalProfile' },
    { to: '/professional-logout', labelKey: 'pages.logout' },
  ],
  admin: [
    { to: '/admin/professionals-list', labelKey: 'pages.adminProfessionalsList' },
    { to: '/admin/user-list', labelKey: 'pages.adminUserList' },
    { to: '/admin/request-list', labelKey: 'pages.adminRequestList' },
    { to: '/admin/service-list', labelKey: 'pages.adminServiceList' },
    { to: '/admin/order-history', labelKey: 'pages.adminOrderHistory' },
    { to: '/admin/tax-report', labelKey: 'pages.adminTaxReport' },
    { to: '/admin/home', labelKey: 'pages.adminHome' },
    { to: '/admin/phome', labelKey: 'pages.adminPhome' },
    { to: '/admin/frhome', labelKey: 'pages.adminFrhome' },
    { to: '/admin/frphome', labelKey: 'pages.adminFrphome' },
    {
      labelKey: 'areas.admin.coupons',
      links: [
        { to: '/admin/coupon-list', labelKey: 'pages.adminCouponList' },
        { to: '/admin/create-coupon', labelKey: 'pages.adminCreateCoupon' },
      ],
    },
    { to: '/admin/contact-messages', labelKey: 'pages.adminContactMessages' },
    { to: '/admin/reported-conversations', labelKey: 'pages.adminReportedConversations' },
    { to: '/admin/problems', labelKey: 'pages.adminProblems' },
    { to: '/admin/disputes', labelKey: 'pages.adminDisputes' },
    { to: '/admin/legal-pages', labelKey: 'pages.adminLegalPages' },
    { to: '/admin/audit-log', labelKey: 'pages.adminAuditLog' },
    { to: '/admin/service-accounts', labelKey: 'pages.adminServiceAccounts' },
    { to: '/admin/privacy-incidents', labelKey: 'pages.adminPrivacyIncidents' },
    { to: '/admin/logout', labelKey: 'pages.logout' },
  ],
};

/** The paths a menu's links go to, in groups too. */
export const menuPaths = (entries: MenuEntry[]): string[] =>
  entries.flatMap((entry) =>
    isMenuGroup(entry) ? entry.links.map((link) => link.to) : [entry.to],
  );

/** The menu as shown: without the links a professional awaiting review may not use. */
export function visibleMenu(area: Area, awaitingReview: boolean): MenuEntry[] {
  const keep = (link: MenuLink) => !(awaitingReview && link.needsReviewedProfile);
  return AREA_MENUS[area]
    .map((entry) => (isMenuGroup(entry) ? { ...entry, links: entry.links.filter(keep) } : entry))
    .filter((entry) => (isMenuGroup(entry) ? entry.links.length > 0 : keep(entry)));
}
