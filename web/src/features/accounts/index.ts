// The accounts feature as the app sees it: route guards and the logout routes. Its screens
// are loaded lazily by the routes table (src/app/routes.tsx) from ./routes.
export { CustomerGate } from './components/customer-gate';
export { RequireRole } from './components/require-role';
export { ProfessionalLandingRedirect, RedirectIfSignedIn } from './components/session-redirect';
export { Logout } from './routes/logout';
export type { MemberRole } from './roles';
