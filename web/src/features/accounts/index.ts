// The accounts feature as the app and the other features see it: route guards, the logout
// routes, and where an account goes from what the server says of it (phone step, profile form,
// approval state). Its screens are loaded lazily by the routes table (src/app/routes.tsx) from
// ./routes.
export { CustomerGate } from './components/customer-gate';
export { RequireRole } from './components/require-role';
export { ProfessionalLandingRedirect, RedirectIfSignedIn } from './components/session-redirect';
export { Logout } from './routes/logout';
export type { MemberRole } from './roles';
export {
  PHONE_STEP_PATHS,
  PROFESSIONAL_DASHBOARD_PATH,
  PROFESSIONAL_PROFILE_FORM_PATH,
  professionalDetails,
  statusOf,
  statusPath,
} from './account-paths';
