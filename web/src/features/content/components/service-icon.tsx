import { Image } from '@chakra-ui/react';
import {
  AirVent,
  Bug,
  Droplet,
  Hammer,
  House,
  SprayCan,
  WashingMachine,
  Wrench,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import type { DefaultService, ServiceCard } from '../service-catalogue';

const ICONS: Record<DefaultService, LucideIcon> = {
  plumbing: Droplet,
  carpenter: Hammer,
  pestControl: Bug,
  roofing: House,
  acRepair: AirVent,
  electrician: Zap,
  cleaning: SprayCan,
  applianceRepair: WashingMachine,
};

/** A service's icon: the server's image, the category's built-in icon, or a wrench. */
export function ServiceIcon({ service }: { service: ServiceCard }) {
  if (service.iconUrl) return <Image src={service.iconUrl} alt="" boxSize="7" />;
  const Icon = service.icon ? ICONS[service.icon] : Wrench;
  return <Icon size={28} aria-hidden />;
}
