import { Button, Input, Stack } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useFieldRules } from '@/components/form/use-field-rules';
import { useServerErrors } from '@/components/form/use-server-errors';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { SIGN_IN_PATHS } from '@/lib/session';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { AuthCard } from '../components/auth-card';
import { AuthLinks } from '../components/auth-links';
import { PROTO_ROLES, REGISTER_PATHS, type MemberRole } from '../roles';

const SERVER_FIELDS = { email: 'email' } as const;

/** The query value the reset pages add when a link can no longer be used. */
export const LINK_EXPIRED = 'link-expired';

/**
 * /forgot-password and /prof-forgot-password: AccountsService.RequestPasswordReset. The answer
 * is the same whether the email has an account or not, and so is the message. Reached with
 * ?msg=link-expired, it first says that the link has expired.
 */
export function ForgotPasswordPage({ role }: { role: MemberRole }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const rules = useFieldRules();
  const request = useRequestPasswordReset();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<{ email: string }>({ defaultValues: { email: '' } });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });

  const onSubmit = handleSubmit(({ email }) => {
    server.clear();
    request.mutate({ role: PROTO_ROLES[role], email: email.trim() }, { onError: server.report });
  });

  return (
    <AuthCard
      title={t(role === 'customer' ? 'pages.forgotPassword' : 'pages.profForgotPassword')}
      intro={t('auth.forgotIntro')}
      footer={
        <AuthLinks
          links={[
            {
              promptKey: 'auth.rememberPassword',
              labelKey: 'auth.logInLink',
              path: SIGN_IN_PATHS[role],
            },
            {
              promptKey: 'auth.noAccount',
              labelKey: 'auth.signUpLink',
              path: REGISTER_PATHS[role],
            },
          ]}
        />
      }
    >
      {params.get('msg') === LINK_EXPIRED && !request.isSuccess && (
        <FormAlert status="warning" title={t('auth.linkExpired')} />
      )}
      {request.isSuccess && <FormAlert status="success" title={t('auth.resetLinkSent')} />}
      {server.formError && <FormAlert title={server.formError} />}
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="4">
          <FormField label={t('forms.email')} error={errors.email?.message} required>
            <Input type="email" autoComplete="email" {...register('email', rules.email)} />
          </FormField>
          <Button type="submit" colorPalette="brand" loading={request.isPending}>
            {t('auth.sendLink')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
