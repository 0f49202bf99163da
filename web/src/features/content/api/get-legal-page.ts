import { useQuery } from '@connectrpc/connect-query';
import { ContentService, LegalPageKind } from '@/gen/repairs/content/v1/content_pb';
import { type Language } from '@/lib/language';
import { toProtoLanguage } from '@/lib/proto-language';

export type LegalKind = 'terms' | 'privacy';

export const LEGAL_KINDS: Record<LegalKind, LegalPageKind> = {
  terms: LegalPageKind.TERMS,
  privacy: LegalPageKind.PRIVACY,
};

/** The terms or the privacy policy in a language, with its etag (ContentService.GetLegalPage). */
export function useLegalPage(kind: LegalKind, language: Language) {
  return useQuery(ContentService.method.getLegalPage, {
    kind: LEGAL_KINDS[kind],
    language: toProtoLanguage(language),
  });
}
