/** The job loop's screens (the specs' route table): quotes, hires, reviews and orders. */
export const JOB_PATHS = {
  /** The customer's open requests that have quotes. */
  withQuotes: '/request-applications-list',
  quotes: (requestId: string) => `/application-list/${encodeURIComponent(requestId)}`,
  quote: (quoteId: string) => `/view-application/${encodeURIComponent(quoteId)}`,
  hire: (quoteId: string) => `/hire/${encodeURIComponent(quoteId)}`,
  hired: '/hired-successfully',
  active: '/user-active-requests',
  completed: '/user-completed-requests',
  review: (professionalId: string, requestId: string) =>
    `/submit-review/${encodeURIComponent(professionalId)}/${encodeURIComponent(requestId)}`,
  customerOrders: '/user-order-history',
  customerRequest: (requestId: string) => `/user-view-request/${encodeURIComponent(requestId)}`,
  professionalRequest: (requestId: string) => `/view-request/${encodeURIComponent(requestId)}`,
  adminRequest: (requestId: string) => `/admin/view-request/${encodeURIComponent(requestId)}`,
} as const;
