// The professionals feature as the app sees it: the gate of the professional area and the
// state the area's menu needs. Its screens are loaded lazily by the routes table from ./routes.
export { ProfessionalGate } from './components/professional-gate';
export { useProfessionalAccount } from './professional-context';
