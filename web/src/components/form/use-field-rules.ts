import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fitsMaxLen, formatFigure } from '@/lib/contract-limits';
import { EMAIL_PATTERN, NAME, PASSWORD_MAX, PASSWORD_MIN, notBlank } from '@/lib/validation';

/** The validation rules (react-hook-form `validate`) of the fields several forms share. */
export function useFieldRules() {
  const { t, i18n } = useTranslation();
  return useMemo(
    () => ({
      name: {
        validate: (value: string) =>
          !notBlank(value) ? t('forms.errors.nameRequired') : fitsMaxLen(i18n, NAME, value),
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
              ? t('forms.errors.passwordTooShort', { min: formatFigure(i18n, PASSWORD_MIN) })
              : value.length <= PASSWORD_MAX ||
                t('forms.errors.passwordTooLong', { max: formatFigure(i18n, PASSWORD_MAX) }),
      },
    }),
    [t, i18n],
  );
}
