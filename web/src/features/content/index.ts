// The content feature as the app and the other features see it: the public pages, and the
// services professionals offer (their names in the page's language).
export { HomePage } from './routes/home-page';
export { ProfessionalLandingPage } from './routes/professional-landing-page';
export type { LandingPageKind } from './routes/page-editor-routes';
export { serviceName, useServiceNames, useServices } from './api/list-services';
