import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '@/lib/translation-key';
import { notBlank } from '@/lib/validation';

/** The server takes reasons of 1 to 1,000 characters. */
const REASON_MAX = 1000;

/** The rules of a reason: required (`requiredKey` says so), at most 1,000 characters. */
export function useReasonRules(requiredKey: TranslationKey) {
  const { t } = useTranslation();
  return {
    validate: (value: string) =>
      !notBlank(value)
        ? t(requiredKey)
        : value.trim().length <= REASON_MAX || t('forms.errors.tooLong', { max: REASON_MAX }),
  };
}
