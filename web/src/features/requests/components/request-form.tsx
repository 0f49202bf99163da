import type { MessageInitShape } from '@bufbuild/protobuf';
import { Button, Input, SimpleGrid, Stack } from '@chakra-ui/react';
import { useMemo, type ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AddressLookup } from '@/components/address/address-lookup';
import { fillFromSuggestion } from '@/components/address/suggested-address';
import { useDraftAutosave, useFormDraft } from '@/components/form/use-form-draft';
import { useServerErrors } from '@/components/form/use-server-errors';
import { FormAlert } from '@/components/ui/form-alert';
import { CountedTextareaField } from '@/components/ui/counted-textarea-field';
import { FormField } from '@/components/ui/form-field';
import { FormSection } from '@/components/ui/form-section';
import { RadioGroupField } from '@/components/ui/radio-group-field';
import { SelectInput } from '@/components/ui/select-input';
import { serviceName, useServices } from '@/features/content';
import {
  type ReverseGeocodeResponse,
  Urgency,
  type AddressSuggestion,
  type RepairRequest,
  RepairRequestDraftSchema,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { AddressSchema } from '@/gen/repairs/type/v1/common_pb';
import { POSTAL_CODE_PATTERN, PROVINCES, provinceKey } from '@/lib/address';
import { bound, fitsMaxLen, limitOf } from '@/lib/contract-limits';
import { useLanguage } from '@/lib/use-language';
import { notBlank } from '@/lib/validation';
import { UseMyLocation } from './use-my-location';

export type RepairRequestDraft = MessageInitShape<typeof RepairRequestDraftSchema>;

/** The catalogue's size as it ships (8 services): the places they take while they load. */
const SERVICES_EXPECTED = 8;

/** The contract's bounds: RepairRequestDraft's description and its Address's lines. */
const DESCRIPTION = limitOf(RepairRequestDraftSchema, 'description');
const LINE1 = limitOf(AddressSchema, 'line1');
const LINE2 = limitOf(AddressSchema, 'line2');
const CITY = limitOf(AddressSchema, 'city');

interface RequestValues {
  serviceId: string;
  description: string;
  urgency: '' | 'immediate' | 'canWait';
  lookup: string;
  line1: string;
  line2: string;
  city: string;
  province: string;
  postalCode: string;
}

/** Proto field paths of the server's violations -> the form's fields. */
const SERVER_FIELDS = {
  'draft.service_id': 'serviceId',
  'draft.description': 'description',
  'draft.urgency': 'urgency',
  // The address as a whole could not be placed on the map (ADDRESS_NOT_FOUND).
  'draft.address': 'lookup',
  'draft.address.line1': 'line1',
  'draft.address.line2': 'line2',
  'draft.address.city': 'city',
  'draft.address.province': 'province',
  'draft.address.postal_code': 'postalCode',
} as const;

const URGENCIES = { immediate: Urgency.IMMEDIATE, canWait: Urgency.CAN_WAIT } as const;

function valuesOf(request: RepairRequest | undefined): RequestValues {
  const address = request?.location.case === 'address' ? request.location.value : undefined;
  const urgency =
    request?.urgency === Urgency.IMMEDIATE
      ? 'immediate'
      : request?.urgency === Urgency.CAN_WAIT
        ? 'canWait'
        : '';
  return {
    serviceId: request?.serviceId ?? '',
    description: request?.description ?? '',
    urgency,
    lookup: '',
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    city: address?.city ?? '',
    province: address?.province ?? '',
    postalCode: address?.postalCode ?? '',
  };
}

function draftOf(values: RequestValues): RepairRequestDraft {
  return {
    serviceId: values.serviceId,
    description: values.description.trim(),
    urgency: values.urgency === '' ? Urgency.UNSPECIFIED : URGENCIES[values.urgency],
    address: {
      line1: values.line1.trim(),
      line2: values.line2.trim(),
      city: values.city.trim(),
      province: values.province,
      postalCode: values.postalCode.trim().toUpperCase(),
      country: 'CA',
    },
  };
}

interface RequestFormProps {
  /** The request being edited; a new one when left out. */
  request?: RepairRequest;
  submitLabel: string;
  /**
   * The name under which what is typed is kept in the browser until the form is sent (a new
   * request's form), so that nothing is lost when the session ends; none keeps nothing.
   */
  draftName?: string;
  /** Sends the draft; rejects with the call's error, which the form shows beside its fields. */
  onSend: (draft: RepairRequestDraft) => Promise<unknown>;
  sending: boolean;
  /** More of the form, before its button (the new request's photos). */
  children?: ReactNode;
}

/**
 * What a customer fills in to place or edit a request: the service (from the catalogue),
 * what to fix (with a character counter), whether it is an emergency, and the address, which
 * the postal code or city look-up fills in. Checked here as the server checks it; the
 * server's refusals show beside the field they concern.
 */
export function RequestForm({
  request,
  submitLabel,
  draftName,
  onSend,
  sending,
  children,
}: RequestFormProps) {
  const { t, i18n } = useTranslation();
  const language = useLanguage();
  const services = useServices();
  const draft = useFormDraft<RequestValues>(draftName ?? null, 'customer');
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    watch,
    formState: { errors },
  } = useForm<RequestValues>({ defaultValues: { ...valuesOf(request), ...draft.restored } });
  useDraftAutosave(watch, draft);
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });
  const description = useWatch({ control, name: 'description' });

  const serviceOptions = useMemo(
    () =>
      (services.data?.services ?? []).map((service) => ({
        value: service.id,
        label: serviceName(service, language),
      })),
    [services.data, language],
  );

  const fill = (suggestion: AddressSuggestion) =>
    fillFromSuggestion(suggestion, (field, value) =>
      setValue(field, value, { shouldValidate: true, shouldDirty: true }),
    );

  const fillFromPosition = (found: ReverseGeocodeResponse) => {
    const options = { shouldValidate: true, shouldDirty: true };
    const address = found.address;
    if (!address) return;
    if (address.line1) setValue('line1', address.line1, options);
    setValue('city', address.city, options);
    setValue('province', address.province, options);
    setValue('postalCode', address.postalCode, options);
  };

  const onSubmit = handleSubmit(async (values) => {
    server.clear();
    try {
      await onSend(draftOf(values));
      draft.clear();
    } catch (error) {
      server.report(error);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
      <Stack gap="6">
        {server.formError && <FormAlert title={server.formError} />}
        {services.error ? (
          <FormAlert title={t('errors.reasons.UNAVAILABLE')} />
        ) : (
          <Controller
            control={control}
            name="serviceId"
            rules={{ validate: (value) => value !== '' || t('requests.errors.serviceRequired') }}
            render={({ field }) => (
              <RadioGroupField
                legend={services.isPending ? t('requests.servicesLoading') : t('requests.service')}
                options={serviceOptions}
                placeholders={services.isPending ? SERVICES_EXPECTED : 0}
                value={field.value}
                onChange={field.onChange}
                inputRef={field.ref}
                error={errors.serviceId?.message}
                required
              />
            )}
          />
        )}
        <CountedTextareaField
          label={t('requests.description')}
          error={errors.description?.message}
          required
          count={description.length}
          limit={bound(DESCRIPTION.maxLen, 'description')}
          rows={5}
          {...register('description', {
            validate: (value) =>
              !notBlank(value)
                ? t('requests.errors.descriptionRequired')
                : fitsMaxLen(i18n, DESCRIPTION, value),
          })}
        />
        <Controller
          control={control}
          name="urgency"
          rules={{ validate: (value) => value !== '' || t('requests.errors.urgencyRequired') }}
          render={({ field }) => (
            <RadioGroupField
              legend={t('requests.urgency')}
              options={[
                { value: 'immediate', label: t('requests.urgencyImmediate') },
                { value: 'canWait', label: t('requests.urgencyCanWait') },
              ]}
              value={field.value}
              onChange={field.onChange}
              inputRef={field.ref}
              error={errors.urgency?.message}
              required
            />
          )}
        />
        <FormSection title={t('requests.address')}>
          <UseMyLocation onFound={fillFromPosition} />
          <Controller
            control={control}
            name="lookup"
            render={({ field }) => (
              <AddressLookup
                label={t('requests.lookup')}
                helperText={t('requests.lookupHelp')}
                error={errors.lookup?.message}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                name={field.name}
                inputRef={field.ref}
                onChoose={fill}
              />
            )}
          />
          <FormField label={t('requests.line1')} error={errors.line1?.message} required>
            <Input
              autoComplete="address-line1"
              maxLength={LINE1.maxLen}
              {...register('line1', {
                validate: (value) =>
                  notBlank(value)
                    ? fitsMaxLen(i18n, LINE1, value)
                    : t('requests.errors.line1Required'),
              })}
            />
          </FormField>
          <FormField label={t('requests.line2')} error={errors.line2?.message}>
            <Input
              autoComplete="address-line2"
              maxLength={LINE2.maxLen}
              {...register('line2', { validate: (value) => fitsMaxLen(i18n, LINE2, value) })}
            />
          </FormField>
          <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
            <FormField label={t('requests.city')} error={errors.city?.message} required>
              <Input
                autoComplete="address-level2"
                maxLength={CITY.maxLen}
                {...register('city', {
                  validate: (value) =>
                    notBlank(value)
                      ? fitsMaxLen(i18n, CITY, value)
                      : t('requests.errors.cityRequired'),
                })}
              />
            </FormField>
            <FormField label={t('requests.province')} error={errors.province?.message} required>
              <SelectInput
                autoComplete="address-level1"
                placeholder={t('requests.chooseProvince')}
                options={PROVINCES.map((code) => ({ value: code, label: t(provinceKey(code)) }))}
                {...register('province', {
                  validate: (value) => value !== '' || t('requests.errors.provinceRequired'),
                })}
              />
            </FormField>
            <FormField
              label={t('requests.postalCode')}
              error={errors.postalCode?.message}
              helperText={t('requests.postalCodeHelp')}
            >
              <Input
                autoComplete="postal-code"
                maxLength={7}
                {...register('postalCode', {
                  validate: (value) =>
                    !notBlank(value) ||
                    POSTAL_CODE_PATTERN.test(value.trim()) ||
                    t('requests.errors.postalCodeInvalid'),
                })}
              />
            </FormField>
          </SimpleGrid>
        </FormSection>
        {children}
        <Button type="submit" colorPalette="brand" alignSelf="start" loading={sending}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
