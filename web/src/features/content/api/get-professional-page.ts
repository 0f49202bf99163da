import { useQuery } from '@connectrpc/connect-query';
import { useTranslation } from 'react-i18next';
import {
  ContentService,
  ProfessionalPageSchema,
  type ProfessionalPage,
} from '@/gen/repairs/content/v1/content_pb';
import { type Language } from '@/lib/language';
import { toProtoLanguage } from '@/lib/proto-language';
import { pageFromCatalogue, withDefaults } from '../page-texts';

/**
 * The professional landing page's texts in a language: ContentService.GetProfessionalPage's,
 * completed by the catalogue's defaults (alone while the server cannot answer).
 */
export function useProfessionalPage(language: Language): ProfessionalPage {
  const { t } = useTranslation();
  const { data } = useQuery(ContentService.method.getProfessionalPage, {
    language: toProtoLanguage(language),
  });
  const defaults = pageFromCatalogue(
    ProfessionalPageSchema,
    t('professionalPage', { returnObjects: true }),
  );
  return withDefaults(ProfessionalPageSchema, defaults, data?.page);
}

/** The professional page's texts in a language as stored, with the etag an edit sends back. */
export function useProfessionalPageForEditing(language: Language) {
  return useQuery(ContentService.method.getProfessionalPage, {
    language: toProtoLanguage(language),
  });
}
