import { useQuery } from '@connectrpc/connect-query';
import { useTranslation } from 'react-i18next';
import { ContentService } from '@/gen/repairs/content/v1/content_pb';
import type { LocalizedText } from '@/gen/repairs/type/v1/common_pb';
import type { Language } from '@/lib/language';
import { DEFAULT_SERVICES, type DefaultService, type ServiceCard } from '../service-catalogue';

const localized = (text: LocalizedText | undefined, language: Language) =>
  text?.[language] || text?.en || '';

/**
 * The service catalogue in a language: ContentService.ListServices' services when the server
 * answers with some, otherwise the eight default categories of the catalogue.
 */
export function useServiceCatalogue(language: Language): ServiceCard[] {
  const { t } = useTranslation();
  const { data } = useQuery(ContentService.method.listServices, {});

  const defaults = DEFAULT_SERVICES.map((key) => ({
    id: key,
    name: t(`services.items.${key}.name`),
    description: t(`services.items.${key}.description`),
    iconUrl: '',
    icon: key,
  }));
  if (!data || data.services.length === 0) return defaults;

  // A server service named like a default category keeps that category's icon.
  const iconByEnglishName = new Map<string, DefaultService>(
    DEFAULT_SERVICES.map((key) => [t(`services.items.${key}.name`, { lng: 'en' }), key]),
  );
  return data.services.map((service) => ({
    id: service.id,
    name: localized(service.name, language),
    description: localized(service.description, language),
    iconUrl: service.iconUrl,
    icon: iconByEnglishName.get(service.name?.en ?? '') ?? null,
  }));
}

/** Every service, archived ones after the active ones, for the admins' list. */
export function useServicesForAdmin() {
  return useQuery(ContentService.method.listServices, { includeArchived: true });
}
