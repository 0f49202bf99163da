import { HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { LinkButton } from '@/components/ui/links';
import { HIRE_PATHS } from '../paths';

/** /hired-successfully: the hire went through; what happens next and where to follow it. */
export function HiredSuccessfullyPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="5" maxW="2xl">
      <PageTitle title={t('pages.hiredSuccessfully')} />
      <Text>{t('hire.done')}</Text>
      <Text>{t('hire.doneNext')}</Text>
      <HStack gap="3" wrap="wrap">
        <LinkButton to={HIRE_PATHS.activeRequests} colorPalette="brand">
          {t('pages.userActiveRequests')}
        </LinkButton>
        <LinkButton to={HIRE_PATHS.orderHistory} variant="outline">
          {t('pages.userOrderHistory')}
        </LinkButton>
      </HStack>
    </Stack>
  );
}
