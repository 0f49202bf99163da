import { Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { FormAlert } from '@/components/ui/form-alert';
import { LinkButton } from '@/components/ui/links';
import { formatDate } from '@/lib/date-format';
import { useLanguage } from '@/lib/use-language';
import { readAccountClosed } from '../closed-account';
import { AuthCard } from '../components/auth-card';

/**
 * /account-closed: where closing one's account leads (CloseAccountSection), signed out. It
 * says the account is closed, from when it is erased and that the emailed link keeps it,
 * and when an open hire or a dispute holds the erasure; all of it read from the closing's
 * answer in the history state. Opened without it (reloaded later, typed), it says the
 * account is closed in general words.
 */
export function AccountClosedPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const closed = readAccountClosed(useLocation().state);
  const eraseAfter =
    closed?.eraseAfterMs == null
      ? null
      : formatDate(new Date(closed.eraseAfterMs), language, { dateStyle: 'long' });
  return (
    <AuthCard title={t('pages.accountClosed')}>
      <Stack gap="4" align="start">
        <Text fontSize="lg" role="status">
          {t('closeAccount.closedPage.closed')}
        </Text>
        <Text>
          {eraseAfter
            ? t('closeAccount.closedPage.eraseOn', { date: eraseAfter })
            : t('closeAccount.closedPage.eraseLater')}
        </Text>
        <Text>{t('closeAccount.closedPage.emailSent')}</Text>
        {closed && closed.heldBy > 0 && (
          <FormAlert
            status="info"
            title={t('closeAccount.closedPage.held', { count: closed.heldBy })}
          />
        )}
        <LinkButton to="/" variant="outline">
          {t('common.backHome')}
        </LinkButton>
      </Stack>
    </AuthCard>
  );
}
