// The content feature as the other features see it: the services professionals offer (their
// names in the page's language). Its screens are listed with their paths in ./routes.
export { serviceName, useServiceNames, useServices } from './api/list-services';
