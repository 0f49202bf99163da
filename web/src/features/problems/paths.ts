/** The problems' pages. */
export const PROBLEM_PATHS = {
  adminQueue: '/admin/problems',
  admin: (id: string) => `/admin/problems/${encodeURIComponent(id)}`,
} as const;
