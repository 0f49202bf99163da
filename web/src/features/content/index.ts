// The content feature as the other features see it: the services professionals offer (their
// names in the page's language). The app reaches the feature through ./routes.
export { serviceName, useServiceNames, useServices } from './api/list-services';
