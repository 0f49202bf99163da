import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EMAIL_PATTERN, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, notBlank } from '@/lib/validation';

/** The validation rules (react-hook-form `validate`) of the fields several forms share. */
export function useFieldRules() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      name: {
        validate: (value: string) =>
          !notBlank(value)
            ? t('forms.errors.nameRequired')
            : value.trim().length <= NAME_MAX || t('forms.errors.nameTooLong'),
      },
      email: {
        validate: (value: string) =>
          !notBlank(value)
            ? t('forms.errors.emailRequired')
            : EMAIL_PATTERN.test(value.trim()) || t('forms.errors.emailInvalid'),
      },
      currentPassword: {
        validate: (value: string) => value !== '' || t('forms.errors.passwordRequired'),
      },
      newPassword: {
        validate: (value: string) =>
          value === ''
            ? t('forms.errors.newPasswordRequired')
            : value.length < PASSWORD_MIN
              ? t('forms.errors.passwordTooShort', { min: PASSWORD_MIN })
              : value.length <= PASSWORD_MAX ||
                t('forms.errors.passwordTooLong', { max: PASSWORD_MAX }),
      },
    }),
    [t],
  );
}
