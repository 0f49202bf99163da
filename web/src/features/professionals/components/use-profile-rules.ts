import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldRules } from '@/components/form/use-field-rules';
import { POSTAL_CODE_PATTERN } from '@/lib/address';
import { parseDollars } from '@/lib/money';
import type { TranslationKey } from '@/lib/translation-key';
import { notBlank } from '@/lib/validation';
import { MAX_FEE_CENTS, RADIUS_KM } from '../profile-fields';
import type { ProfileValues } from '../profile-values';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The profile form's rules: the same limits the server applies, said in the page's language. */
export function useProfileRules() {
  const { t } = useTranslation();
  const common = useFieldRules();
  return useMemo(() => {
    const text =
      (max: number, requiredKey?: TranslationKey) =>
      (value: string): true | string => {
        if (requiredKey && !notBlank(value)) return t(requiredKey);
        return value.trim().length <= max || t('forms.errors.tooLong', { max });
      };
    return {
      name: common.name,
      email: common.email,
      description: { validate: text(2000, 'professionalProfile.errors.descriptionRequired') },
      registeredAddress: {
        validate: text(300, 'professionalProfile.errors.registeredAddressRequired'),
      },
      line1: { validate: text(200, 'professionalProfile.errors.line1Required') },
      line2: { validate: text(200) },
      city: { validate: text(100, 'professionalProfile.errors.cityRequired') },
      province: { validate: text(2, 'professionalProfile.errors.provinceRequired') },
      postalCode: {
        validate: (value: string) =>
          !notBlank(value)
            ? t('professionalProfile.errors.postalCodeRequired')
            : POSTAL_CODE_PATTERN.test(value.trim()) ||
              t('professionalProfile.errors.postalCodeFormat'),
      },
      availableDays: {
        validate: (days: string[]) =>
          days.length > 0 || t('professionalProfile.errors.daysRequired'),
      },
      availableFrom: {
        validate: (value: string) => TIME.test(value) || t('professionalProfile.errors.timeFormat'),
      },
      availableTo: {
        validate: (value: string, values: ProfileValues) =>
          !TIME.test(value)
            ? t('professionalProfile.errors.timeFormat')
            : value > values.availableFrom || t('professionalProfile.errors.timeOrder'),
      },
      radiusKm: {
        validate: (value: string) => {
          if (!notBlank(value)) return t('professionalProfile.errors.radiusRequired');
          const km = Number(value.trim());
          return (
            (/^\d+$/.test(value.trim()) && km >= RADIUS_KM.min && km <= RADIUS_KM.max) ||
            t('professionalProfile.errors.radius', RADIUS_KM)
          );
        },
      },
      serviceIds: {
        validate: (ids: string[]) =>
          ids.length > 0 || t('professionalProfile.errors.servicesRequired'),
      },
      qualification: { validate: text(200) },
      experience: {
        validate: (value: string) =>
          value !== '' || t('professionalProfile.errors.experienceRequired'),
      },
      minimumFee: {
        validate: (value: string) => {
          if (!notBlank(value)) return t('professionalProfile.errors.feeRequired');
          const cents = parseDollars(value);
          return (
            (cents !== null && cents <= MAX_FEE_CENTS) || t('professionalProfile.errors.feeFormat')
          );
        },
      },
    };
  }, [t, common]);
}
