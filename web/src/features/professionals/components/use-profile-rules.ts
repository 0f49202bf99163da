import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldRules } from '@/components/form/use-field-rules';
import { ProfessionalProfileSchema } from '@/gen/repairs/accounts/v1/accounts_pb';
import { AddressSchema } from '@/gen/repairs/type/v1/common_pb';
import { POSTAL_CODE_PATTERN } from '@/lib/address';
import { fitsMaxLen, limitOf, type Limit } from '@/lib/contract-limits';
import { parseLanguage } from '@/lib/language';
import { parseDollars } from '@/lib/money';
import { isGstHstNumber, isQstNumber } from '@/lib/tax-numbers';
import type { TranslationKey } from '@/lib/translation-key';
import { notBlank } from '@/lib/validation';
import { MAX_FEE_CENTS, RADIUS_KM } from '../profile-fields';
import type { ProfileValues } from '../profile-values';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The bounds UpdateProfessionalProfileRequest's profile states for its texts. */
const LIMITS = {
  description: limitOf(ProfessionalProfileSchema, 'description'),
  registeredAddress: limitOf(ProfessionalProfileSchema, 'registeredAddress'),
  qualification: limitOf(ProfessionalProfileSchema, 'qualification'),
  line1: limitOf(AddressSchema, 'line1'),
  line2: limitOf(AddressSchema, 'line2'),
  city: limitOf(AddressSchema, 'city'),
};

/** The profile form's rules: the same limits the server applies, said in the page's language. */
export function useProfileRules() {
  const { t, i18n } = useTranslation();
  const common = useFieldRules();
  return useMemo(() => {
    const text =
      (limit: Limit, requiredKey?: TranslationKey) =>
      (value: string): true | string => {
        if (requiredKey && !notBlank(value)) return t(requiredKey);
        return fitsMaxLen(i18n, limit, value);
      };
    return {
      name: common.name,
      email: common.email,
      description: {
        validate: text(LIMITS.description, 'professionalProfile.errors.descriptionRequired'),
      },
      registeredAddress: {
        validate: text(
          LIMITS.registeredAddress,
          'professionalProfile.errors.registeredAddressRequired',
        ),
      },
      line1: { validate: text(LIMITS.line1, 'professionalProfile.errors.line1Required') },
      line2: { validate: text(LIMITS.line2) },
      city: { validate: text(LIMITS.city, 'professionalProfile.errors.cityRequired') },
      province: {
        validate: (value: string) =>
          notBlank(value) || t('professionalProfile.errors.provinceRequired'),
      },
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
      qualification: { validate: text(LIMITS.qualification) },
      experience: {
        validate: (value: string) =>
          value !== '' || t('professionalProfile.errors.experienceRequired'),
      },
      minimumFee: {
        validate: (value: string) => {
          if (!notBlank(value)) return t('professionalProfile.errors.feeRequired');
          const cents = parseDollars(value, parseLanguage(i18n.language));
          return (
            (cents !== null && cents <= MAX_FEE_CENTS) || t('professionalProfile.errors.feeFormat')
          );
        },
      },
      gstHstNumber: {
        validate: (value: string) =>
          !notBlank(value) || isGstHstNumber(value) || t('professionalProfile.errors.gstHstNumber'),
      },
      qstNumber: {
        validate: (value: string, values: ProfileValues) => {
          if (!notBlank(value)) return true;
          if (!isQstNumber(value)) return t('professionalProfile.errors.qstNumber');
          return notBlank(values.gstHstNumber) || t('professionalProfile.errors.qstWithoutGstHst');
        },
      },
    };
  }, [t, i18n, common]);
}
