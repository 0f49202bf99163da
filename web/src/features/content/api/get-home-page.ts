import { useQuery } from '@connectrpc/connect-query';
import { useTranslation } from 'react-i18next';
import { ContentService, HomePageSchema, type HomePage } from '@/gen/repairs/content/v1/content_pb';
import { type Language } from '@/lib/language';
import { toProtoLanguage } from '@/lib/proto-language';
import { pageFromCatalogue, withDefaults } from '../page-texts';

/**
 * The home page's texts in a language: ContentService.GetHomePage's, completed by the
 * catalogue's defaults. While the server has not answered, or answers with an error (such as
 * UNIMPLEMENTED), the defaults show without any message.
 */
export function useHomePage(language: Language): HomePage {
  const { t } = useTranslation();
  const { data } = useQuery(ContentService.method.getHomePage, {
    language: toProtoLanguage(language),
  });
  const defaults = pageFromCatalogue(HomePageSchema, t('home', { returnObjects: true }));
  return withDefaults(HomePageSchema, defaults, data?.page);
}

/** The home page's texts in a language as stored, with the etag an edit sends back. */
export function useHomePageForEditing(language: Language) {
  return useQuery(ContentService.method.getHomePage, { language: toProtoLanguage(language) });
}
