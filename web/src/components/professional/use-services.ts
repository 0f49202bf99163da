import { useQuery } from '@connectrpc/connect-query';
import { useCallback } from 'react';
import { ContentService, type Service } from '@/gen/repairs/content/v1/content_pb';
import type { Language } from '@/lib/language';
import { useLanguage } from '@/lib/use-language';

/**
 * The services professionals offer, with their ids (ContentService.ListServices): the
 * profile form's choices and the names shown for a profile's ids.
 */
export function useServices() {
  return useQuery(ContentService.method.listServices, {}, { staleTime: 10 * 60_000 });
}

export const serviceName = (service: Service, language: Language) =>
  (language === 'fr' ? service.name?.fr : '') || service.name?.en || service.id;

/**
 * A function from a service id to its name in the page's language; when the catalogue does
 * not know it, `fallback` (the name a reply carried) or else the id.
 */
export function useServiceNames(): (id: string, fallback?: string) => string {
  const language = useLanguage();
  const { data } = useServices();
  return useCallback(
    (id: string, fallback?: string) => {
      const service = data?.services.find((candidate) => candidate.id === id);
      return service ? serviceName(service, language) : fallback || id;
    },
    [data, language],
  );
}
