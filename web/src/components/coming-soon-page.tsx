import { EmptyState, Stack } from '@chakra-ui/react';
import { Hammer } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '@/lib/translation-key';
import { PageTitle } from './page-title';

/**
 * The honest stand-in of a screen that a later release builds: its real title and a panel
 * saying it is coming, so that every route of the specs already exists.
 */
export function ComingSoonPage({ titleKey }: { titleKey: TranslationKey }) {
  const { t } = useTranslation();
  return (
    <Stack gap="6">
      <PageTitle title={t(titleKey)} />
      <EmptyState.Root borderWidth="1px" borderRadius="lg" bg="bg.subtle">
        <EmptyState.Content>
          <EmptyState.Indicator color="accent.fg">
            <Hammer aria-hidden />
          </EmptyState.Indicator>
          <EmptyState.Title>{t('common.comingSoonTitle')}</EmptyState.Title>
          <EmptyState.Description>{t('common.comingSoonBody')}</EmptyState.Description>
        </EmptyState.Content>
      </EmptyState.Root>
    </Stack>
  );
}
