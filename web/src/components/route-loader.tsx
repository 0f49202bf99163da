import { Center, Spinner } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** Shown while a screen's code loads. */
export function RouteLoader() {
  const { t } = useTranslation();
  return (
    <Center minH="50vh" role="status" aria-live="polite">
      <Spinner size="lg" color="brand.solid" aria-label={t('common.loading')} />
    </Center>
  );
}
