/** The eight service categories of the specs, as keys of the catalogue's `services.items`. */
export const DEFAULT_SERVICES = [
  'plumbing',
  'carpenter',
  'pestControl',
  'roofing',
  'acRepair',
  'electrician',
  'cleaning',
  'applianceRepair',
] as const;

export type DefaultService = (typeof DEFAULT_SERVICES)[number];

/** A service as the landing pages show it. */
export interface ServiceCard {
  id: string;
  name: string;
  description: string;
  /** The server's icon; empty for the built-in one. */
  iconUrl: string;
  /** Which built-in icon to draw when there is no icon URL. */
  icon: DefaultService | null;
}
