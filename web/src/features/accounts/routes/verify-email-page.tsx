import { Button, Stack, Text } from '@chakra-ui/react';
import { CircleCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { AppLink, LinkButton } from '@/components/ui/links';
import { readRpcError } from '@/lib/rpc-error';
import { ACCOUNT_PATHS, SIGN_IN_PATHS, signedInAccountId, type Role } from '@/lib/session';
import { browserSessionEnvironment } from '@/lib/session-environment';
import { useConfirmEmail } from '../api/confirm-email';
import { AuthCard } from '../components/auth-card';
import { FORGOT_PASSWORD_PATHS, sessionRole } from '../roles';

/** Where the confirmed account goes on: its own page when it is signed in, else its login page. */
function onwardPath(role: Role, accountId: string): string {
  const signedIn = signedInAccountId(role, browserSessionEnvironment()) === accountId;
  return signedIn ? ACCOUNT_PATHS[role] : SIGN_IN_PATHS[role];
}

/**
 * /verify-email/{token}: the link emailed at sign-up. The token is sent once on opening
 * (AccountsService.ConfirmEmail; using it twice would report the used link as expired), then
 * the page says whether the address is confirmed. An unusable link only means the address
 * stays unconfirmed: the account keeps working, and a password reset confirms it too.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const confirm = useConfirmEmail();
  const { mutate } = confirm;
  const sentFor = useRef<string | null>(null);
  useEffect(() => {
    // StrictMode runs effects twice in development; the link is still used once.
    if (sentFor.current === token) return;
    sentFor.current = token;
    mutate({ token });
  }, [mutate, token]);

  if (confirm.isIdle || confirm.isPending) return <RouteLoader />;
  const expired =
    confirm.error !== null && readRpcError(confirm.error).reason === 'EMAIL_LINK_EXPIRED';

  return (
    <AuthCard title={t('pages.verifyEmail')}>
      {confirm.data && (
        <Confirmed role={sessionRole(confirm.data.role)} accountId={confirm.data.accountId} />
      )}
      {expired && <LinkExpired />}
      {confirm.error && !expired && (
        <Stack gap="4">
          <RpcErrorAlert error={confirm.error} />
          <Button variant="outline" onClick={() => mutate({ token })}>
            {t('verifyEmail.retry')}
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}

function Confirmed({ role, accountId }: { role: Role; accountId: string }) {
  const { t } = useTranslation();
  const path = onwardPath(role, accountId);
  const signedIn = path === ACCOUNT_PATHS[role];
  return (
    <Stack gap="5" align="start">
      <CircleCheck size={48} color="var(--chakra-colors-green-600)" aria-hidden />
      <Text fontSize="lg" role="status">
        {t('verifyEmail.confirmed')}
      </Text>
      <LinkButton to={path} colorPalette="brand">
        {t(signedIn ? `verifyEmail.next.${role}` : 'verifyEmail.next.logIn')}
      </LinkButton>
    </Stack>
  );
}

/** Links among a page's text look like links: coloured and underlined. */
const IN_TEXT_LINK = { color: 'brand.fg', textDecoration: 'underline' } as const;

function LinkExpired() {
  const { t } = useTranslation();
  return (
    <Stack gap="4">
      <FormAlert status="warning" title={t('errors.reasons.EMAIL_LINK_EXPIRED')}>
        {t('verifyEmail.expiredHelp')}
      </FormAlert>
      <Text>{t('verifyEmail.newLink')}</Text>
      <Stack gap="2">
        <AppLink to={FORGOT_PASSWORD_PATHS.customer} {...IN_TEXT_LINK}>
          {t('verifyEmail.resetCustomer')}
        </AppLink>
        <AppLink to={FORGOT_PASSWORD_PATHS.professional} {...IN_TEXT_LINK}>
          {t('verifyEmail.resetProfessional')}
        </AppLink>
      </Stack>
    </Stack>
  );
}
