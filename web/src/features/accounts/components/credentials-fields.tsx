import { Input } from '@chakra-ui/react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFieldRules } from '@/components/form/use-field-rules';
import { FormField } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';

export interface Credentials {
  email: string;
  password: string;
}

/**
 * The email and password fields of the sign-in and sign-up forms (inside a FormProvider).
 * A new password must have at least 8 characters; a current one must only be given.
 */
export function CredentialsFields({ newPassword = false }: { newPassword?: boolean }) {
  const { t } = useTranslation();
  const rules = useFieldRules();
  const {
    register,
    formState: { errors },
  } = useFormContext<Credentials>();
  return (
    <>
      <FormField label={t('forms.email')} error={errors.email?.message} required>
        <Input type="email" autoComplete="email" {...register('email', rules.email)} />
      </FormField>
      <FormField
        label={t('forms.password')}
        error={errors.password?.message}
        helperText={newPassword ? t('forms.passwordHelp') : undefined}
        required
      >
        <PasswordInput
          autoComplete={newPassword ? 'new-password' : 'current-password'}
          {...register('password', newPassword ? rules.newPassword : rules.currentPassword)}
        />
      </FormField>
    </>
  );
}
