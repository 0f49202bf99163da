import { useQuery } from '@connectrpc/connect-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ContentService, type Service } from '@/gen/repairs/content/v1/content_pb';
import type { LocalizedText } from '@/gen/repairs/type/v1/common_pb';
import type { Language } from '@/lib/language';
import { typesetName } from '@/lib/typeset';
import { useLanguage } from '@/lib/use-language';
import { DEFAULT_SERVICES, type DefaultService, type ServiceCard } from '../service-catalogue';

/** A text an admin wrote, in `language` (English when it has none), as stored. */
const stored = (text: LocalizedText | undefined, language: Language) =>
  text?.[language] || text?.en || '';

/** The same, typeset as the catalogue's texts. */
const localized = (text: LocalizedText | undefined, language: Language) =>
  typesetName(stored(text, language), language);

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
  // The landing pages' cards are prerendered and filled by the BFF with the stored names,
  // which the server stores typeset: typesetting them again changes nothing, so the page
  // hydrates.
  return data.services.map((service) => ({
    id: service.id,
    name: localized(service.name, language),
    description: stored(service.description, language),
    iconUrl: service.iconUrl,
    icon: iconByEnglishName.get(service.name?.en ?? '') ?? null,
  }));
}

/** Every service, archived ones after the active ones, for the admins' list. */
export function useServicesForAdmin() {
  return useQuery(ContentService.method.listServices, { includeArchived: true });
}

/**
 * The services professionals offer, with their ids (ContentService.ListServices): the
 * profile form's choices and the names shown for a profile's ids.
 */
export function useServices() {
  return useQuery(ContentService.method.listServices, {}, { staleTime: 10 * 60_000 });
}

export const serviceName = (service: Service, language: Language) =>
  localized(service.name, language) || service.id;

/**
 * A function from a service id to its name in the page's language; when the catalogue does
 * not know it, `fallback` (the name a reply carries), typeset the same way, or else the id.
 */
export function useServiceNames(): (id: string, fallback?: string) => string {
  const language = useLanguage();
  const { data } = useServices();
  return useCallback(
    (id: string, fallback?: string) => {
      const service = data?.services.find((candidate) => candidate.id === id);
      return service ? serviceName(service, language) : typesetName(fallback ?? '', language) || id;
    },
    [data, language],
  );
}
