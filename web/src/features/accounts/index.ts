// The accounts feature as the app sees it.
export { RequireRole } from './components/require-role';
export { ProfessionalLandingRedirect, RedirectIfSignedIn } from './components/session-redirect';
export { Logout } from './routes/logout';
export { isProfessionalAwaitingReview } from './professional-status';
