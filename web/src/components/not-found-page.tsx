import { Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from './page-title';
import { LinkButton } from './ui/links';

/** Shown for any path the app does not know, in the current language. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack align="start" gap="4" py="10">
      <PageTitle title={t('notFound.title')} />
      <Text fontSize="lg">{t('notFound.body')}</Text>
      <LinkButton to="/" colorPalette="brand">
        {t('common.backHome')}
      </LinkButton>
    </Stack>
  );
}
