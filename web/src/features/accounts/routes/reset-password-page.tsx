import { Button, Stack } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { LocalizedNavigate } from '@/components/localized-navigation';
import { useFieldRules } from '@/components/form/use-field-rules';
import { useServerErrors } from '@/components/form/use-server-errors';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { SIGN_IN_PATHS } from '@/lib/session';
import { useCheckPasswordResetToken } from '../api/check-password-reset-token';
import { useResetPassword } from '../api/reset-password';
import { AuthCard } from '../components/auth-card';
import { FORGOT_PASSWORD_PATHS, PROTO_ROLES, type MemberRole } from '../roles';
import { LINK_EXPIRED } from './forgot-password-page';
import type { LoginPageState } from './login-page';

interface ResetValues {
  password: string;
  confirm: string;
}

const SERVER_FIELDS = { new_password: 'password' } as const;

/**
 * /reset-password/{id}/{token} and /prof-reset-password/{id}/{token}: the link is checked
 * first (an unusable one goes back to the forgot-password page with ?msg=link-expired), then
 * a new password typed twice (they must match) is saved and the login page opens.
 */
export function ResetPasswordPage({ role }: { role: MemberRole }) {
  const { t } = useTranslation();
  const { id = '', token = '' } = useParams();
  const navigate = useLocalizedNavigate();
  const rules = useFieldRules();
  const check = useCheckPasswordResetToken(PROTO_ROLES[role], id, token);
  const reset = useResetPassword();
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    formState: { errors },
  } = useForm<ResetValues>({ defaultValues: { password: '', confirm: '' } });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });
  const expiredPath = `${FORGOT_PASSWORD_PATHS[role]}?msg=${LINK_EXPIRED}`;

  if (check.isPending) return <RouteLoader />;
  if (check.data && !check.data.valid) return <LocalizedNavigate to={expiredPath} replace />;

  const onSubmit = handleSubmit(({ password }) => {
    server.clear();
    reset.mutate(
      { role: PROTO_ROLES[role], accountId: id, token, newPassword: password },
      {
        onSuccess: () => {
          const state: LoginPageState = { notice: 'password-reset' };
          void navigate(SIGN_IN_PATHS[role], { replace: true, state });
        },
        onError: (error) => {
          const problem = server.report(error);
          if (problem.reason === 'RESET_LINK_EXPIRED')
            void navigate(expiredPath, { replace: true });
        },
      },
    );
  });

  return (
    <AuthCard
      title={t(role === 'customer' ? 'pages.resetPassword' : 'pages.profResetPassword')}
      intro={t('auth.resetIntro')}
    >
      {check.error && <RpcErrorAlert error={check.error} />}
      {server.formError && <FormAlert title={server.formError} />}
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="4">
          <FormField
            label={t('auth.newPassword')}
            error={errors.password?.message}
            helperText={t('forms.passwordHelp')}
            required
          >
            <PasswordInput
              autoComplete="new-password"
              {...register('password', rules.newPassword)}
            />
          </FormField>
          <FormField label={t('auth.confirmPassword')} error={errors.confirm?.message} required>
            <PasswordInput
              autoComplete="new-password"
              {...register('confirm', {
                validate: (value) =>
                  value === getValues('password') || t('forms.errors.passwordsDiffer'),
              })}
            />
          </FormField>
          <Button type="submit" colorPalette="brand" loading={reset.isPending}>
            {t('auth.savePassword')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
