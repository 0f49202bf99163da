import { Center, Spinner } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/**
 * Shown while a list on a page loads: as tall as the list's empty state, so that the page
 * below does not jump when the list (often empty at first) arrives.
 */
export function ListLoader() {
  const { t } = useTranslation();
  return (
    <Center minH="9.5rem" borderWidth="1px" borderRadius="lg" role="status" aria-live="polite">
      <Spinner size="lg" color="brand.solid" aria-label={t('common.loading')} />
    </Center>
  );
}
