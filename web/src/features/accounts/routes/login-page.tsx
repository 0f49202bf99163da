import { Button, Stack, Text } from '@chakra-ui/react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useServerErrors } from '@/components/form/use-server-errors';
import { FormAlert } from '@/components/ui/form-alert';
import { AppLink } from '@/components/ui/links';
import type { Role, SessionEndReason } from '@/lib/session';
import type { TranslationKey } from '@/lib/translation-key';
import { useLogIn } from '../api/log-in';
import { AuthCard } from '../components/auth-card';
import { AuthLinks, type AuthLink } from '../components/auth-links';
import { CredentialsFields, type Credentials } from '../components/credentials-fields';
import { SocialSignIn } from '../components/social-sign-in';
import { FORGOT_PASSWORD_PATHS, PROTO_ROLES, REGISTER_PATHS } from '../roles';
import { readSessionEnded } from '../session-ended';
import { useStartSession } from '../sign-in';

const SERVER_FIELDS = { email: 'email', password: 'password' } as const;

const TITLES: Record<Role, TranslationKey> = {
  customer: 'pages.login',
  professional: 'pages.loginAsProfessional',
  admin: 'pages.adminLogin',
};

const LINKS: Record<Role, AuthLink[]> = {
  customer: [
    { promptKey: 'auth.noAccount', labelKey: 'auth.signUpLink', path: REGISTER_PATHS.customer },
    {
      promptKey: 'auth.areYouProfessional',
      labelKey: 'auth.professionalLogInLink',
      path: '/login-as-professional',
    },
  ],
  professional: [
    {
      promptKey: 'auth.noAccount',
      labelKey: 'auth.signUpLink',
      path: REGISTER_PATHS.professional,
    },
    { promptKey: 'auth.needRepairs', labelKey: 'auth.customerLogInLink', path: '/login' },
  ],
  admin: [],
};

/** What another page may ask the login page to say (after a password reset). */
export interface LoginPageState {
  notice?: 'password-reset';
}

/** Why the previous session ended, as the sign-in page says it. */
const ENDED_TEXTS: Record<SessionEndReason, TranslationKey> = {
  SESSION_EXPIRED: 'session.ended.SESSION_EXPIRED',
  SESSION_INVALID: 'session.ended.SESSION_INVALID',
  SESSION_REVOKED: 'session.ended.SESSION_REVOKED',
  SESSION_TOO_OLD: 'session.ended.SESSION_TOO_OLD',
  SIGN_IN_REQUIRED: 'session.ended.SIGN_IN_REQUIRED',
};

/**
 * /login, /fr/login, /login-as-professional, /fr/login-as-professional and /admin:
 * AccountsService.LogIn for the role, then the role's first page (phone step, profile form,
 * approval state, professionals list).
 */
export function LoginPage({ role }: { role: Role }) {
  const { t } = useTranslation();
  const state: unknown = useLocation().state;
  const notice = (state as LoginPageState | null)?.notice;
  const ended = readSessionEnded(state);
  const logIn = useLogIn();
  const startSession = useStartSession();
  const form = useForm<Credentials>({ defaultValues: { email: '', password: '' } });
  const server = useServerErrors(form.setError, { fields: SERVER_FIELDS });

  const onSubmit = form.handleSubmit((values) => {
    server.clear();
    logIn.mutate(
      { role: PROTO_ROLES[role], email: values.email.trim(), password: values.password },
      {
        onSuccess: ({ session, account }) => startSession(session, account),
        onError: server.report,
      },
    );
  });

  return (
    <AuthCard title={t(TITLES[role])} footer={<AuthLinks links={LINKS[role]} />}>
      {notice === 'password-reset' && (
        <FormAlert status="success" title={t('auth.passwordChanged')} />
      )}
      {ended && (
        <FormAlert status="warning" title={t('session.ended.title')}>
          <Text>{t(ENDED_TEXTS[ended.ended])}</Text>
          <Text>{t('session.ended.comeBack')}</Text>
        </FormAlert>
      )}
      {server.formError && <FormAlert title={server.formError} />}
      <FormProvider {...form}>
        <form noValidate onSubmit={onSubmit}>
          <Stack gap="4">
            <CredentialsFields />
            {role !== 'admin' && (
              <AppLink to={FORGOT_PASSWORD_PATHS[role]} color="brand.fg" alignSelf="end">
                {t('auth.forgotPasswordLink')}
              </AppLink>
            )}
            <Button type="submit" colorPalette="brand" loading={logIn.isPending}>
              {t('auth.logIn')}
            </Button>
          </Stack>
        </form>
      </FormProvider>
      {role === 'customer' && <SocialSignIn />}
    </AuthCard>
  );
}
