// The accounts feature as the other features see it: where an account goes from what the
// server says of it (phone step, profile form, approval state). The app reaches the feature
// through ./routes.
export {
  PHONE_STEP_PATHS,
  PROFESSIONAL_DASHBOARD_PATH,
  PROFESSIONAL_PROFILE_FORM_PATH,
  professionalDetails,
  statusOf,
  statusPath,
} from './account-paths';
// "Alert me on this device", on the professional's profile as on the customer's account.
export { DeviceAlertsSwitch } from './components/device-alerts-switch';
