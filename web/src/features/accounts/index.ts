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
// "What reaches you" (CASL): each kind of message by email, text and device alerts.
export { NotificationPreferences } from './components/notification-preferences';
// "Your data" (PIPEDA, Law 25), on the professional's profile as on the customer's account:
// a copy of one's data (also an admin's, on a person's behalf), and closing one's account.
export { DataExportSection } from './components/data-export-section';
export { CloseAccountSection } from './components/close-account-section';
