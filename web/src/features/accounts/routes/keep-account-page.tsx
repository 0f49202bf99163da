import { Button, Stack, Text } from '@chakra-ui/react';
import { CircleCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { AppLink, LinkButton } from '@/components/ui/links';
import { readRpcError } from '@/lib/rpc-error';
import { SIGN_IN_PATHS, type Role } from '@/lib/session';
import { useCancelAccountDeletion } from '../api/cancel-account-deletion';
import { AuthCard } from '../components/auth-card';
import { sessionRole } from '../roles';

/** Links among a page's text look like links: coloured and underlined. */
const IN_TEXT_LINK = { color: 'brand.fg', textDecoration: 'underline' } as const;

/**
 * /keep-account/{token}: the link emailed when an account is closed. Opening it does nothing
 * (mail scanners open links): the page says what keeping does, and its button sends the
 * token (AccountsService.CancelAccountDeletion), no sign-in needed. Then it leads to the
 * sign-in page of the account's role. A link that no longer keeps an account (used, altered,
 * or its account erased) is said in the page, with both sign-in pages for a kept account.
 */
export function KeepAccountPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const keep = useCancelAccountDeletion();
  const invalid =
    keep.error !== null && readRpcError(keep.error).reason === 'ACCOUNT_DELETION_LINK_INVALID';

  return (
    <AuthCard title={t('pages.keepAccount')}>
      {keep.data ? (
        <Kept role={sessionRole(keep.data.role)} />
      ) : (
        <Stack gap="4" align="start">
          <Text>{t('closeAccount.keepPage.intro')}</Text>
          <Text color="fg.muted">{t('closeAccount.keepPage.notBack')}</Text>
          {keep.error && <RpcErrorAlert error={keep.error} />}
          {invalid ? (
            <LinkInvalid />
          ) : (
            <Button
              colorPalette="brand"
              minH="11"
              loading={keep.isPending}
              onClick={() => keep.mutate({ token })}
            >
              {t('closeAccount.keepPage.submit')}
            </Button>
          )}
        </Stack>
      )}
    </AuthCard>
  );
}

function Kept({ role }: { role: Role }) {
  const { t } = useTranslation();
  return (
    <Stack gap="5" align="start">
      <CircleCheck size={48} color="var(--chakra-colors-green-600)" aria-hidden />
      <Text fontSize="lg" role="status">
        {t('closeAccount.keepPage.kept')}
      </Text>
      <LinkButton to={SIGN_IN_PATHS[role]} colorPalette="brand">
        {t('closeAccount.keepPage.signIn')}
      </LinkButton>
    </Stack>
  );
}

function LinkInvalid() {
  const { t } = useTranslation();
  return (
    <Stack gap="2">
      <Text>{t('closeAccount.keepPage.invalidHelp')}</Text>
      <AppLink to={SIGN_IN_PATHS.customer} {...IN_TEXT_LINK}>
        {t('auth.customerLogInLink')}
      </AppLink>
      <AppLink to={SIGN_IN_PATHS.professional} {...IN_TEXT_LINK}>
        {t('auth.professionalLogInLink')}
      </AppLink>
    </Stack>
  );
}
