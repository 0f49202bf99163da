import { Box, Input, InputGroup, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AddressLookup } from '@/components/address/address-lookup';
import { fillFromSuggestion } from '@/components/address/suggested-address';
import { ToggleField } from '@/components/form/toggle-field';
import { CheckboxGroupField, type CheckboxOption } from '@/components/ui/checkbox-group-field';
import { FormField } from '@/components/ui/form-field';
import { FormSection } from '@/components/ui/form-section';
import { SelectInput } from '@/components/ui/select-input';
import { PROVINCES, provinceKey } from '@/lib/address';
import { centsToDollarsText } from '@/lib/money';
import { GST_HST_EXAMPLE, QST_EXAMPLE } from '@/lib/tax-numbers';
import { useLanguage } from '@/lib/use-language';
import { EXPERIENCES, WEEKDAYS } from '../profile-fields';
import type { ProfileValues } from '../profile-values';
import { useProfileRules } from './use-profile-rules';

function useProfileForm() {
  const form = useFormContext<ProfileValues>();
  return { ...form, errors: form.formState.errors, rules: useProfileRules() };
}

interface ChoiceGroupProps {
  name: 'availableDays' | 'serviceIds';
  legend: string;
  options: CheckboxOption[];
  helperText?: string;
  columns?: { base: number; md: number };
}

/** A required group of checkboxes of the profile (days, specialisations). */
function ChoiceGroup({ name, ...props }: ChoiceGroupProps) {
  const { control, errors, rules } = useProfileForm();
  return (
    <Controller
      control={control}
      name={name}
      rules={rules[name]}
      render={({ field }) => (
        <CheckboxGroupField
          {...props}
          value={field.value}
          onChange={field.onChange}
          error={errors[name]?.message}
          inputRef={field.ref}
          required
        />
      )}
    />
  );
}

/** Name, contact and description. */
export function BasicInfoSection({ phone }: { phone: string }) {
  const { t } = useTranslation();
  const { register, control, errors, rules } = useProfileForm();
  return (
    <FormSection title={t('professionalProfile.sections.basic')}>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <FormField label={t('forms.name')} error={errors.name?.message} required>
          <Input autoComplete="name" {...register('name', rules.name)} />
        </FormField>
        <FormField label={t('forms.email')} error={errors.email?.message} required>
          <Input type="email" autoComplete="email" {...register('email', rules.email)} />
        </FormField>
        <FormField label={t('forms.phone')} helperText={t('professionalProfile.phoneHelp')}>
          <Input value={phone} readOnly />
        </FormField>
        <Box alignSelf="end" pb="2">
          <ToggleField
            control={control}
            name="smsUpdates"
            label={t('professionalProfile.smsUpdates')}
          />
        </Box>
      </SimpleGrid>
      <FormField
        label={t('professionalProfile.description')}
        error={errors.description?.message}
        helperText={t('professionalProfile.descriptionHelp')}
        required
      >
        <Textarea rows={5} {...register('description', rules.description)} />
      </FormField>
    </FormSection>
  );
}

/**
 * The home base's look-up: a street address, postal code or town chosen from the suggestions
 * fills the fields below it (what is typed in it is not saved).
 */
function HomeBaseLookup() {
  const { t } = useTranslation();
  const { setValue } = useFormContext<ProfileValues>();
  const [typed, setTyped] = useState('');
  return (
    <AddressLookup
      label={t('professionalProfile.homeBaseLookup')}
      helperText={t('professionalProfile.homeBaseLookupHelp')}
      value={typed}
      onChange={setTyped}
      name="homeBaseLookup"
      onChoose={(suggestion) =>
        fillFromSuggestion(suggestion, (field, value) =>
          setValue(field, value, { shouldValidate: true, shouldDirty: true }),
        )
      }
    />
  );
}

/** The billing address and the home base the radius is measured from. */
export function AddressSection() {
  const { t } = useTranslation();
  const { register, errors, rules } = useProfileForm();
  return (
    <FormSection
      title={t('professionalProfile.sections.address')}
      description={t('professionalProfile.sections.addressHelp')}
    >
      <FormField
        label={t('professionalProfile.registeredAddress')}
        error={errors.registeredAddress?.message}
        helperText={t('professionalProfile.registeredAddressHelp')}
        required
      >
        <Input
          autoComplete="street-address"
          {...register('registeredAddress', rules.registeredAddress)}
        />
      </FormField>
      <HomeBaseLookup />
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <FormField label={t('professionalProfile.line1')} error={errors.line1?.message} required>
          <Input autoComplete="address-line1" {...register('line1', rules.line1)} />
        </FormField>
        <FormField label={t('professionalProfile.line2')} error={errors.line2?.message}>
          <Input autoComplete="address-line2" {...register('line2', rules.line2)} />
        </FormField>
        <FormField label={t('professionalProfile.city')} error={errors.city?.message} required>
          <Input autoComplete="address-level2" {...register('city', rules.city)} />
        </FormField>
        <FormField
          label={t('professionalProfile.province')}
          error={errors.province?.message}
          required
        >
          <SelectInput
            options={PROVINCES.map((code) => ({ value: code, label: t(provinceKey(code)) }))}
            {...register('province', rules.province)}
          />
        </FormField>
        <FormField
          label={t('professionalProfile.postalCode')}
          error={errors.postalCode?.message}
          helperText={t('professionalProfile.postalCodeHelp')}
          required
        >
          <Input autoComplete="postal-code" {...register('postalCode', rules.postalCode)} />
        </FormField>
      </SimpleGrid>
    </FormSection>
  );
}

/** Days and hours when the professional takes requests, and emergencies outside them. */
export function AvailabilitySection() {
  const { t } = useTranslation();
  const { register, control, errors, rules } = useProfileForm();
  const days: CheckboxOption[] = WEEKDAYS.map((day) => ({
    value: String(day.value),
    label: t(day.key),
  }));
  return (
    <FormSection title={t('professionalProfile.sections.availability')}>
      <ChoiceGroup
        name="availableDays"
        legend={t('professionalProfile.availableDays')}
        options={days}
        columns={{ base: 2, md: 4 }}
      />
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <FormField
          label={t('professionalProfile.availableFrom')}
          error={errors.availableFrom?.message}
          required
        >
          <Input type="time" {...register('availableFrom', rules.availableFrom)} />
        </FormField>
        <FormField
          label={t('professionalProfile.availableTo')}
          error={errors.availableTo?.message}
          required
        >
          <Input type="time" {...register('availableTo', rules.availableTo)} />
        </FormField>
      </SimpleGrid>
      <Stack gap="1">
        <ToggleField
          control={control}
          name="emergenciesAnyHour"
          label={t('emergencyEscalation.anyHour')}
        />
        <Text fontSize="sm" color="fg.muted">
          {t('emergencyEscalation.anyHourHelp')}
        </Text>
      </Stack>
    </FormSection>
  );
}

/** The minimum fee the field shows as an example, as its error texts do. */
const EXAMPLE_FEE_CENTS = 3000;

/** Radius, specialisations, qualification, experience and minimum fee. */
export function WorkSection({ services }: { services: CheckboxOption[] }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { register, errors, rules } = useProfileForm();
  return (
    <FormSection title={t('professionalProfile.sections.work')}>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <FormField
          label={t('professionalProfile.radius')}
          error={errors.radiusKm?.message}
          helperText={t('professionalProfile.radiusHelp')}
          required
        >
          <InputGroup endAddon="km">
            <Input inputMode="numeric" placeholder="50" {...register('radiusKm', rules.radiusKm)} />
          </InputGroup>
        </FormField>
        <FormField
          label={t('professionalProfile.minimumFee')}
          error={errors.minimumFee?.message}
          required
        >
          {/* French writes the dollar sign after the amount: 30,00 $. */}
          <InputGroup
            startAddon={language === 'en' ? '$' : undefined}
            endAddon={language === 'en' ? 'CAD' : '$ CAD'}
          >
            <Input
              inputMode="decimal"
              placeholder={centsToDollarsText(EXAMPLE_FEE_CENTS, language)}
              {...register('minimumFee', rules.minimumFee)}
            />
          </InputGroup>
        </FormField>
        <FormField
          label={t('professionalProfile.experience')}
          error={errors.experience?.message}
          required
        >
          <SelectInput
            placeholder={t('professionalProfile.chooseExperience')}
            options={EXPERIENCES.map((choice) => ({
              value: String(choice.value),
              label: t(choice.key),
            }))}
            {...register('experience', rules.experience)}
          />
        </FormField>
        <FormField
          label={t('professionalProfile.qualification')}
          error={errors.qualification?.message}
        >
          <Input {...register('qualification', rules.qualification)} />
        </FormField>
      </SimpleGrid>
      <ChoiceGroup
        name="serviceIds"
        legend={t('professionalProfile.services')}
        helperText={t('professionalProfile.licenceNote')}
        options={services}
      />
    </FormSection>
  );
}

/**
 * The professional's sales tax registrations (optional, changed at once): without a GST/HST
 * number their quotes carry no tax; a QST number goes with one.
 */
export function TaxSection() {
  const { t } = useTranslation();
  const { register, errors, rules } = useProfileForm();
  return (
    <FormSection
      title={t('professionalProfile.sections.taxes')}
      description={t('professionalProfile.sections.taxesHelp')}
    >
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <FormField
          label={t('professionalProfile.gstHstNumber')}
          error={errors.gstHstNumber?.message}
          helperText={t('professionalProfile.gstHstNumberHelp', { example: GST_HST_EXAMPLE })}
        >
          <Input
            autoComplete="off"
            spellCheck={false}
            placeholder={GST_HST_EXAMPLE}
            {...register('gstHstNumber', rules.gstHstNumber)}
          />
        </FormField>
        <FormField
          label={t('professionalProfile.qstNumber')}
          error={errors.qstNumber?.message}
          helperText={t('professionalProfile.qstNumberHelp', { example: QST_EXAMPLE })}
        >
          <Input
            autoComplete="off"
            spellCheck={false}
            placeholder={QST_EXAMPLE}
            {...register('qstNumber', rules.qstNumber)}
          />
        </FormField>
      </SimpleGrid>
    </FormSection>
  );
}
