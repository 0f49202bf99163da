import { useTranslation } from 'react-i18next';
import { DenyProfessionalRequestSchema } from '@/gen/repairs/accounts/v1/accounts_pb';
import { fitsMaxLen, limitOf } from '@/lib/contract-limits';
import type { TranslationKey } from '@/lib/translation-key';
import { notBlank } from '@/lib/validation';

/** A reason as DenyProfessionalRequest and RefusePendingChangeRequest take it. */
const REASON = limitOf(DenyProfessionalRequestSchema, 'reason');

/** The rules of a reason: required (`requiredKey` says so), within the contract's bound. */
export function useReasonRules(requiredKey: TranslationKey) {
  const { t, i18n } = useTranslation();
  return {
    validate: (value: string) =>
      !notBlank(value) ? t(requiredKey) : fitsMaxLen(i18n, REASON, value),
  };
}
