import { Button, Container, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from './page-title';

/** Shown when a screen throws while rendering or loading its code. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  return (
    <Container as="main" maxW="3xl" py="16">
      <Stack align="start" gap="4">
        <PageTitle title={t('routeError.title')} />
        <Text fontSize="lg">{t('routeError.body')}</Text>
        <Button colorPalette="brand" onClick={() => window.location.reload()}>
          {t('routeError.reload')}
        </Button>
      </Stack>
    </Container>
  );
}
