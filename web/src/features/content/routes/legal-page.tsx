import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { useLanguage } from '@/lib/use-language';
import { useLegalPage, type LegalKind } from '../api/get-legal-page';

/** Paragraphs of a legal page's plain text: separated by a blank line. */
const paragraphsOf = (body: string) =>
  body
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);

/**
 * /terms-and-conditions and /privacy-policy: the page admins wrote in the reader's language
 * (ContentService.GetLegalPage), shown as text, paragraph by paragraph; the privacy page
 * ends with the person in charge of personal information and how to reach them.
 */
export function LegalPage({ kind }: { kind: LegalKind }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { data, isPending, error } = useLegalPage(kind, language);
  const page = data?.page;
  return (
    <Stack gap="4" maxW="3xl">
      <PageTitle title={page?.title || t(`pages.${kind}`)} />
      {isPending && <RouteLoader />}
      {error ? <RpcErrorAlert error={error} /> : null}
      {page &&
        paragraphsOf(page.body).map((paragraph, index) => (
          <Text key={index} fontSize="lg" whiteSpace="pre-line">
            {paragraph}
          </Text>
        ))}
      {page?.personInCharge ? (
        <Box as="section" aria-labelledby="person-in-charge" borderWidth="1px" rounded="md" p="4">
          <Heading as="h2" id="person-in-charge" size="md" mb="2">
            {t('legal.personInCharge')}
          </Heading>
          <Text fontSize="lg" whiteSpace="pre-line">
            {page.personInCharge}
          </Text>
        </Box>
      ) : null}
    </Stack>
  );
}
