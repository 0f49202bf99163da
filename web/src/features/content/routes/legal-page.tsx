import { Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';

/** /terms-and-conditions and /privacy-policy: short texts in both languages. */
export function LegalPage({ kind }: { kind: 'terms' | 'privacy' }) {
  const { t } = useTranslation();
  const paragraphs = t(`legal.${kind}`, { returnObjects: true });
  return (
    <Stack gap="4" maxW="3xl">
      <PageTitle title={t(`pages.${kind}`)} />
      <Text fontStyle="italic" color="fg.muted">
        {t('legal.placeholderNotice')}
      </Text>
      {paragraphs.map((paragraph) => (
        <Text key={paragraph} fontSize="lg">
          {paragraph}
        </Text>
      ))}
    </Stack>
  );
}
