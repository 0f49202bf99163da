// The accounts feature as the app and the other features see it: route guards, and where an
// account goes from what the server says of it (phone step, profile form, approval state). Its
// screens are listed with their paths in ./routes.
export { CustomerGate } from './components/customer-gate';
export { RequireRole } from './components/require-role';
export { ProfessionalLandingRedirect, RedirectIfSignedIn } from './components/session-redirect';
export {
  PHONE_STEP_PATHS,
  PROFESSIONAL_DASHBOARD_PATH,
  PROFESSIONAL_PROFILE_FORM_PATH,
  professionalDetails,
  statusOf,
  statusPath,
} from './account-paths';
