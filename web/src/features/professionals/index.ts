// The professionals feature as the app and the other features see it: the gate of the
// professional area and the state the area's menu needs; a profile as the admins see it; the
// membership gate of the professional's work screens and its notice; and the paths and places
// of the requests a professional works on. Its screens are listed with their paths in ./routes.
export { ProfessionalGate } from './components/professional-gate';
export { useProfessionalAccount } from './professional-context';
export { ProfessionalDetails } from './components/professional-details';
export { StatusBadge } from './components/status-badge';
export { InactiveMembershipNotice } from './components/membership-notice';
export { isMembershipInactive } from './membership';
export { addressText, approximatePlace, PROFESSIONAL_REQUEST_PATHS } from './professional-requests';
