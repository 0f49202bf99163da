import { Button, HStack, Stack } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFieldRules } from '@/components/form/use-field-rules';
import { useServerErrors } from '@/components/form/use-server-errors';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { AppLink } from '@/components/ui/links';
import { PasswordInput } from '@/components/ui/password-input';
import { FORGOT_PASSWORD_PATHS } from '../roles';

interface LinkValues {
  password: string;
}

const SERVER_FIELDS = { password: 'password' } as const;
/** A wrong password (or too many of them) is the field's problem, said beside it. */
const REASON_FIELDS = { INVALID_CREDENTIALS: 'password', LOG_IN_THROTTLED: 'password' } as const;

interface SocialLinkPasswordProps {
  /** Resends the sign-in with the password; `report` shows a refusal in this form. */
  onSubmit: (password: string, report: (error: unknown) => void) => void;
  onCancel: () => void;
  loading: boolean;
}

/**
 * The step a Google or Facebook sign-in takes when an account with its email exists but that
 * email was never confirmed (SOCIAL_LINK_NEEDS_PASSWORD): the account's password, asked once,
 * proves the account is the caller's; after that the button signs in directly.
 */
export function SocialLinkPassword({ onSubmit, onCancel, loading }: SocialLinkPasswordProps) {
  const { t } = useTranslation();
  const rules = useFieldRules();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<LinkValues>({ defaultValues: { password: '' } });
  const server = useServerErrors(setError, {
    fields: SERVER_FIELDS,
    reasonFields: REASON_FIELDS,
  });
  const submit = handleSubmit(({ password }) => {
    server.clear();
    onSubmit(password, server.report);
  });
  return (
    <Stack gap="4">
      <FormAlert status="info" title={t('auth.socialLink.title')}>
        {t('auth.socialLink.explanation')}
      </FormAlert>
      {server.formError && <FormAlert title={server.formError} />}
      <form noValidate onSubmit={submit}>
        <Stack gap="4">
          <FormField
            label={t('auth.socialLink.password')}
            error={errors.password?.message}
            required
          >
            <PasswordInput
              autoComplete="current-password"
              {...register('password', rules.currentPassword)}
            />
          </FormField>
          <HStack gap="3">
            <Button type="submit" colorPalette="brand" loading={loading}>
              {t('auth.socialLink.submit')}
            </Button>
            <Button variant="ghost" onClick={onCancel}>
              {t('common.cancel')}
            </Button>
          </HStack>
        </Stack>
      </form>
      <AppLink to={FORGOT_PASSWORD_PATHS.customer}>{t('auth.forgotPasswordLink')}</AppLink>
    </Stack>
  );
}
