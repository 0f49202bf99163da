// The professionals feature as the other features see it: a profile as the admins see it; the
// membership gate of the professional's work screens and its notice; the paths and places
// of the requests a professional works on; and for customers, a professional's photo and the
// links to their public profile. The app reaches the feature through ./routes.
export { ProfessionalDetails } from './components/professional-details';
export { StatusBadge } from './components/status-badge';
export { InactiveMembershipNotice } from './components/membership-notice';
export { isMembershipInactive } from './membership';
export { addressText, approximatePlace, PROFESSIONAL_REQUEST_PATHS } from './professional-requests';
export { PublicProfessionalAvatar } from './components/professional-avatar';
export { publicProfileTarget, type ProfileOrigin } from './profile-origin';
