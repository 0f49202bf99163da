/** The request screens' paths (the specs' route table). */
export const REQUEST_PATHS = {
  dashboard: '/user-dashboard',
  create: '/create-request',
  created: '/request-created',
  pending: '/pending-requests',
  view: (id: string) => `/user-view-request/${encodeURIComponent(id)}`,
  edit: (id: string) => `/edit-request/${encodeURIComponent(id)}`,
  remove: (id: string) => `/delete-request/${encodeURIComponent(id)}`,
  applications: (id: string) => `/application-list/${encodeURIComponent(id)}`,
  withQuotes: '/request-applications-list',
  active: '/user-active-requests',
  completed: '/user-completed-requests',
  hire: (quoteId: string) => `/hire/${encodeURIComponent(quoteId)}`,
  review: (professionalId: string, requestId: string) =>
    `/submit-review/${encodeURIComponent(professionalId)}/${encodeURIComponent(requestId)}`,
  adminList: '/admin/request-list',
  adminView: (id: string) => `/admin/view-request/${encodeURIComponent(id)}`,
} as const;
