// The content feature as the app sees it: the public pages.
export { HomePage } from './routes/home-page';
export { ProfessionalLandingPage } from './routes/professional-landing-page';
export type { LandingPageKind } from './routes/page-editor-routes';
