/** The admins' service screens. */
export const SERVICE_PATHS = {
  list: '/admin/service-list',
  add: '/admin/add-service',
  edit: (id: string) => `/admin/edit-service/${encodeURIComponent(id)}`,
  remove: (id: string) => `/admin/delete-service/${encodeURIComponent(id)}`,
} as const;
