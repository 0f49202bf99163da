// The jobs feature as the other features see it: a request with its quotes, followed live
// (the customer's request page). The app reaches the feature through ./routes.
export { isFinalRequestState, useLiveQuotes } from './api/watch-repair-request';
export { ChooseAgain } from './components/choose-again';
export { ReleaseHire } from './components/release-hire';
export { TripPanel } from './trip/trip-panel';
export { TripBanner } from './components/trip-banner';
