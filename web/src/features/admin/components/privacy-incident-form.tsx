import { Button, Heading, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useEffect, useId, useRef } from 'react';
import { Controller, useForm, useWatch, type Validate } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useServerErrors } from '@/components/form/use-server-errors';
import { CountedTextareaField } from '@/components/ui/counted-textarea-field';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { RadioGroupField } from '@/components/ui/radio-group-field';
import { PrivacyIncidentSchema, type PrivacyIncident } from '@/gen/repairs/accounts/v1/accounts_pb';
import { bound, fitsMaxLen, formatFigure, limitOf, type Limit } from '@/lib/contract-limits';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { notBlank } from '@/lib/validation';
import { titleFocusProps } from '@/lib/route-focus';
import { useRecordPrivacyIncident } from '../api/record-privacy-incident';
import {
  BLANK_INCIDENT,
  incidentOf,
  timeOfInput,
  valuesOf,
  type IncidentValues,
} from '../privacy-incident-values';

/** PrivacyIncident's rules, from the contract. */
const DESCRIPTION = limitOf(PrivacyIncidentSchema, 'description');
const INFORMATION = limitOf(PrivacyIncidentSchema, 'informationInvolved');
const PEOPLE = limitOf(PrivacyIncidentSchema, 'peopleAffected');
const ASSESSMENT = limitOf(PrivacyIncidentSchema, 'riskAssessment');
const MEASURES = limitOf(PrivacyIncidentSchema, 'measuresTaken');
const WHOLE = /^\d{1,9}$/;

/** The server's field violations, next to their fields. */
const SERVER_FIELDS = {
  'incident.occurred_at': 'occurredAt',
  'incident.discovered_at': 'discoveredAt',
  'incident.description': {
    field: 'description',
    messageKey: 'privacyIncidents.errors.descriptionRequired',
  },
  'incident.information_involved': {
    field: 'informationInvolved',
    messageKey: 'privacyIncidents.errors.informationRequired',
  },
  'incident.people_affected': 'peopleAffected',
  'incident.risk_assessment': {
    field: 'riskAssessment',
    messageKey: 'privacyIncidents.errors.assessmentRequired',
  },
  'incident.measures_taken': 'measuresTaken',
  'incident.commissioner_notified_at': 'commissionerNotifiedAt',
  'incident.people_notified_at': 'peopleNotifiedAt',
} as const;

interface PrivacyIncidentFormProps {
  /** The incident amended; a new one when left out. */
  amending?: PrivacyIncident;
  /** Once the server has recorded it, as recorded. */
  onSaved: (incident: PrivacyIncident | undefined) => void;
  /** Leaves an amendment unsaved. */
  onCancel: () => void;
}

/**
 * A privacy incident's facts (AccountsService.RecordPrivacyIncident): when it happened and
 * was discovered, what happened and whose information, how many people, the assessed risk of
 * serious injury and why, the measures taken and the notifications made. Each field says
 * what is wrong with it, by the contract's rules and the server's (times in order, none in the
 * future); any other refusal shows above the form. Amending an incident sends it with its id;
 * the form then takes the focus at its title.
 */
export function PrivacyIncidentForm({ amending, onSaved, onCancel }: PrivacyIncidentFormProps) {
  const { t, i18n } = useTranslation();
  const formatTime = useDateTimeFormat();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const record = useRecordPrivacyIncident();
  const {
    register,
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<IncidentValues>({
    defaultValues: amending ? valuesOf(amending) : BLANK_INCIDENT,
  });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });
  const [risk, description, information, assessment, measures] = useWatch({
    control,
    name: ['risk', 'description', 'informationInvolved', 'riskAssessment', 'measuresTaken'],
  });

  // Asked to amend an incident: the form (shown with it) is where the admin goes on.
  useEffect(() => {
    if (amending) headingRef.current?.focus();
  }, [amending]);

  const required = (message: string, limit: Limit) => (value: string) =>
    !notBlank(value) ? message : fitsMaxLen(i18n, limit, value);

  /** A time given, at most now. */
  const past =
    (missing: string | null, future: string): Validate<string, IncidentValues> =>
    (value) => {
      if (!value) return missing ?? true;
      const time = timeOfInput(value);
      if (!time) return t('privacyIncidents.errors.timeInvalid');
      return time.getTime() <= Date.now() || future;
    };
  /** A notification: none, or a time between the discovery and now. */
  const notification: Validate<string, IncidentValues> = (value, values) => {
    const inPast = past(null, t('privacyIncidents.errors.notifiedFuture'))(value, values);
    if (inPast !== true || !value) return inPast;
    const discovered = timeOfInput(values.discoveredAt);
    return (
      !discovered ||
      timeOfInput(value)!.getTime() >= discovered.getTime() ||
      t('privacyIncidents.errors.notifiedBeforeDiscovery')
    );
  };

  const onSubmit = handleSubmit((values) => {
    server.clear();
    record.mutate(
      { incident: incidentOf(values, amending) },
      {
        onSuccess: ({ incident }) => {
          reset(BLANK_INCIDENT);
          onSaved(incident);
        },
        onError: server.report,
      },
    );
  });

  const title = amending
    ? t('privacyIncidents.amendTitle', { when: formatTime(amending.discoveredAt) })
    : t('privacyIncidents.newTitle');

  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby={headingId}>
      <Stack
        gap="4"
        borderWidth="1px"
        borderRadius="lg"
        p={{ base: '4', md: '6' }}
        bg="bg"
        maxW="3xl"
      >
        <Stack gap="1">
          <Heading
            as="h2"
            id={headingId}
            ref={headingRef}
            size="lg"
            color="brand.900"
            {...titleFocusProps}
          >
            {title}
          </Heading>
          <Text color="fg.muted">{t('privacyIncidents.formHelp')}</Text>
        </Stack>
        {server.formError && <FormAlert title={server.formError} />}
        <Stack direction={{ base: 'column', md: 'row' }} gap="4">
          <FormField
            label={t('privacyIncidents.fields.occurredAt')}
            helperText={t('privacyIncidents.fields.asBestKnown')}
            error={errors.occurredAt?.message}
            required
          >
            <Input
              type="datetime-local"
              {...register('occurredAt', {
                validate: (value, values) => {
                  const given = past(
                    t('privacyIncidents.errors.occurredRequired'),
                    t('privacyIncidents.errors.occurredFuture'),
                  )(value, values);
                  if (given !== true) return given;
                  const discovered = timeOfInput(values.discoveredAt);
                  return (
                    !discovered ||
                    timeOfInput(value)!.getTime() <= discovered.getTime() ||
                    t('privacyIncidents.errors.occurredAfterDiscovery')
                  );
                },
              })}
            />
          </FormField>
          <FormField
            label={t('privacyIncidents.fields.discoveredAt')}
            error={errors.discoveredAt?.message}
            required
          >
            <Input
              type="datetime-local"
              {...register('discoveredAt', {
                validate: past(
                  t('privacyIncidents.errors.discoveredRequired'),
                  t('privacyIncidents.errors.discoveredFuture'),
                ),
                deps: ['occurredAt', 'commissionerNotifiedAt', 'peopleNotifiedAt'],
              })}
            />
          </FormField>
        </Stack>
        <CountedTextareaField
          label={t('privacyIncidents.fields.description')}
          error={errors.description?.message}
          required
          count={description.length}
          limit={bound(DESCRIPTION.maxLen, 'incident description')}
          rows={4}
          {...register('description', {
            validate: required(t('privacyIncidents.errors.descriptionRequired'), DESCRIPTION),
          })}
        />
        <CountedTextareaField
          label={t('privacyIncidents.fields.informationInvolved')}
          error={errors.informationInvolved?.message}
          required
          count={information.length}
          limit={bound(INFORMATION.maxLen, 'information involved')}
          rows={3}
          {...register('informationInvolved', {
            validate: required(t('privacyIncidents.errors.informationRequired'), INFORMATION),
          })}
        />
        <FormField
          label={t('privacyIncidents.fields.peopleAffected')}
          helperText={t('privacyIncidents.fields.peopleAffectedHelp')}
          error={errors.peopleAffected?.message}
          required
        >
          <Input
            inputMode="numeric"
            autoComplete="off"
            maxW="48"
            {...register('peopleAffected', {
              validate: (value) => {
                const count = Number(value.trim());
                const min = PEOPLE.min ?? 0;
                const max = bound(PEOPLE.max, 'people affected');
                return (
                  (WHOLE.test(value.trim()) && count >= min && count <= max) ||
                  t('privacyIncidents.errors.peopleInvalid', {
                    min: formatFigure(i18n, min),
                    max: formatFigure(i18n, max),
                  })
                );
              },
            })}
          />
        </FormField>
        <Stack gap="2">
          <Controller
            control={control}
            name="risk"
            rules={{
              validate: (value) => value !== '' || t('privacyIncidents.errors.riskRequired'),
            }}
            render={({ field }) => (
              <RadioGroupField
                legend={t('privacyIncidents.fields.risk')}
                options={[
                  { value: 'yes', label: t('common.yes') },
                  { value: 'no', label: t('common.no') },
                ]}
                value={field.value}
                onChange={field.onChange}
                inputRef={field.ref}
                error={errors.risk?.message}
                required
              />
            )}
          />
          {risk === 'yes' && <Text color="fg.muted">{t('privacyIncidents.fields.riskDue')}</Text>}
        </Stack>
        <CountedTextareaField
          label={t('privacyIncidents.fields.riskAssessment')}
          error={errors.riskAssessment?.message}
          required
          count={assessment.length}
          limit={bound(ASSESSMENT.maxLen, 'risk assessment')}
          rows={4}
          {...register('riskAssessment', {
            validate: required(t('privacyIncidents.errors.assessmentRequired'), ASSESSMENT),
          })}
        />
        <CountedTextareaField
          label={t('privacyIncidents.fields.measuresTaken')}
          error={errors.measuresTaken?.message}
          count={measures.length}
          limit={bound(MEASURES.maxLen, 'measures taken')}
          rows={3}
          {...register('measuresTaken', {
            validate: (value) => fitsMaxLen(i18n, MEASURES, value),
          })}
        />
        <FormField
          label={t('privacyIncidents.fields.commissionerNotifiedAt')}
          helperText={t('privacyIncidents.fields.commissionerNotifiedHelp')}
          error={errors.commissionerNotifiedAt?.message}
        >
          <Input
            type="datetime-local"
            maxW="xs"
            {...register('commissionerNotifiedAt', { validate: notification })}
          />
        </FormField>
        <FormField
          label={t('privacyIncidents.fields.peopleNotifiedAt')}
          helperText={t('privacyIncidents.fields.notYetHelp')}
          error={errors.peopleNotifiedAt?.message}
        >
          <Input
            type="datetime-local"
            maxW="xs"
            {...register('peopleNotifiedAt', { validate: notification })}
          />
        </FormField>
        <HStack gap="3" wrap="wrap">
          <Button type="submit" colorPalette="accent" loading={record.isPending}>
            {amending ? t('privacyIncidents.saveAmendment') : t('privacyIncidents.record')}
          </Button>
          {amending && (
            <Button variant="outline" onClick={onCancel}>
              {t('privacyIncidents.cancelAmendment')}
            </Button>
          )}
        </HStack>
      </Stack>
    </form>
  );
}
