import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { FormAlert } from '@/components/ui/form-alert';
import { AppLink, LinkButton } from '@/components/ui/links';
import { REQUEST_PATHS } from '../paths';

/** /request-created: 'Your Request is Successfully Created!', a link to it and to a new one. */
export function RequestCreatedPage() {
  const { t } = useTranslation();
  const placed = (useLocation().state as { id?: string } | null)?.id;
  return (
    <Stack gap="6" maxW="2xl">
      <PageTitle title={t('pages.requestCreated')} />
      <FormAlert status="success" title={t('requests.created')}>
        {t('requests.createdBody')}
      </FormAlert>
      <Stack direction={{ base: 'column', sm: 'row' }} gap="4" align={{ sm: 'center' }}>
        <LinkButton to={REQUEST_PATHS.create} colorPalette="brand">
          {t('requests.createNew')}
        </LinkButton>
        {placed && (
          <AppLink to={REQUEST_PATHS.view(placed)} color="brand.fg">
            {t('requests.viewCreated')}
          </AppLink>
        )}
      </Stack>
    </Stack>
  );
}
