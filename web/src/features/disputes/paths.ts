/** The card disputes' pages. */
export const DISPUTE_PATHS = {
  adminList: '/admin/disputes',
  admin: (id: string) => `/admin/disputes/${encodeURIComponent(id)}`,
} as const;
