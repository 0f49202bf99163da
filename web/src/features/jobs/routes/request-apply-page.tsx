import { Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ToggleField } from '@/components/form/toggle-field';
import { useDraftAutosave, useFormDraft } from '@/components/form/use-form-draft';
import { useServerErrors } from '@/components/form/use-server-errors';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FactsList } from '@/components/ui/facts-list';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { AppLink, LinkButton } from '@/components/ui/links';
import { toaster } from '@/components/ui/toast';
import { PROFESSIONAL_PROFILE_FORM_PATH } from '@/features/accounts';
import { useServiceNames } from '@/features/content';
import {
  approximatePlace,
  InactiveMembershipNotice,
  isMembershipInactive,
  PROFESSIONAL_REQUEST_PATHS,
} from '@/features/professionals';
import {
  CreateQuoteRequestSchema,
  RepairRequestState,
  Urgency,
  type RepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import type { Money } from '@/gen/repairs/type/v1/common_pb';
import { bound, formatFigure, limitOf } from '@/lib/contract-limits';
import { MAX_ESTIMATE_HOURS, parseHours } from '@/lib/duration';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { centsToDollarsText, formatMoney as formatAmount, parseDollars } from '@/lib/money';
import { readRpcError } from '@/lib/rpc-error';
import { useLanguage } from '@/lib/use-language';
import { useMoneyFormat } from '@/lib/use-money-format';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useCreateQuote } from '../api/create-quote';
import { useMinimumFee, useTaxRegistered } from '../api/get-minimum-fee';
import { useQuotedRequest } from '../api/get-repair-request';
import { formatDuration } from '../arrival';
import {
  maxArrivalMinutes,
  MIN_ARRIVAL_MINUTES,
  quickArrivals,
  readArrival,
} from '../trip/arrival-minutes';

interface QuoteValues {
  /** Estimated time in hours ("1.5"). */
  hours: string;
  /** The fee in dollars, as the reader writes it ("30.00", "30,00"). */
  fee: string;
  /** The spec's "Surge Cost": this fee replaces the standard one and may be below it. */
  surge: boolean;
  /** Add GST/HST (and QST in Quebec) to the fee: offered to registered professionals only. */
  addTaxes: boolean;
  /** How soon after a hire they can be at the door, in whole minutes ("45"). */
  arrival: string;
}

/** The fee the field shows as an example, as its help text does. */
const EXAMPLE_FEE_CENTS = 3000;

/** The server's field paths on the form's fields. */
const SERVER_FIELDS = {
  estimated_minutes: 'hours',
  fee: 'fee',
  'fee.amount_cents': 'fee',
  'fee.currency': 'fee',
  // ARRIVAL_TIME_REQUIRED says it in its own words; a bare refusal of the bounds in these.
  arrival_minutes: { field: 'arrival', messageKey: 'trip.form.refused' },
} as const;

/**
 * The largest fee a quote may ask, in cents: `lte` of CreateQuoteRequest.fee's amount_cents
 * (1,000,000.00 CAD). The contract lets it be 0 (`gte: 0`); the form and the server want a fee.
 */
const MAX_FEE_CENTS = BigInt(
  bound(limitOf(CreateQuoteRequestSchema, 'fee.amountCents').max, 'largest fee'),
);

/**
 * /request-apply/{id}: the quote form, under a summary of the request. Estimated time in
 * hours and a fee in dollars (started from the professional's minimum fee), sent as minutes
 * and CAD cents (MarketplaceService.CreateQuote); 'Surge Cost' lets the fee go below the
 * minimum for this job. A fee under the minimum is said beside the field, by the form first
 * and by the server's FEE_BELOW_MINIMUM if the minimum changed meanwhile. A professional with
 * a GST/HST number adds the taxes of the property's province (ticked by default, `add_taxes`);
 * one without is told their quote carries none, with a way to their profile. How soon after a
 * hire they can be at the door, in minutes (typed, or one of the quick choices), is required
 * on an emergency and then within a day (`arrival_minutes`); the server's ARRIVAL_TIME_REQUIRED
 * shows beside it.
 */
export function RequestApplyPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const professionalId = useSignedInId('professional');
  const request = useQuotedRequest(id);
  const minimum = useMinimumFee(professionalId);
  const taxRegistered = useTaxRegistered(professionalId).data ?? false;
  const repairRequest = request.data?.repairRequest;
  const open = repairRequest?.state === RepairRequestState.OPEN;
  const loading = request.isPending || (minimum.isPending && minimum.fetchStatus !== 'idle');

  return (
    <Stack gap="6" maxW="3xl">
      <AppLink to={PROFESSIONAL_REQUEST_PATHS.list} color="brand.fg">
        {t('requests.open.backToList')}
      </AppLink>
      <PageTitle title={t('pages.requestApply')} />
      {loading && <RouteLoader />}
      {request.error && <RpcErrorAlert error={request.error} />}
      {repairRequest && !loading && (
        <>
          <RequestSummary request={repairRequest} />
          {open ? (
            <QuoteForm
              requestId={id}
              professionalId={professionalId ?? ''}
              minimumFee={minimum.data ?? null}
              taxRegistered={taxRegistered}
              emergency={repairRequest.urgency === Urgency.IMMEDIATE}
            />
          ) : (
            <FormAlert status="info" title={t('quoteForm.notOpen')} />
          )}
        </>
      )}
    </Stack>
  );
}

/** What is being quoted on: the service, the task, whether it is urgent and where. */
function RequestSummary({ request }: { request: RepairRequest }) {
  const { t } = useTranslation();
  const serviceName = useServiceNames();
  return (
    <FactsList
      facts={[
        [t('requests.service'), serviceName(request.serviceId, request.serviceName)],
        [t('requests.taskDescription'), request.description],
        [t('requests.open.location'), approximatePlace(request)],
      ]}
    />
  );
}

interface QuoteFormProps {
  requestId: string;
  professionalId: string;
  /** The professional's minimum fee; null when their profile has none. */
  minimumFee: Money | null;
  /** Whether their profile has a GST/HST number (then taxes are added unless unticked). */
  taxRegistered: boolean;
  /** An emergency (URGENCY_IMMEDIATE): the arrival is required, and within a day. */
  emergency: boolean;
}

function QuoteForm({
  requestId,
  professionalId,
  minimumFee,
  taxRegistered,
  emergency,
}: QuoteFormProps) {
  const { t, i18n } = useTranslation();
  const language = useLanguage();
  const navigate = useLocalizedNavigate();
  const formatMoney = useMoneyFormat();
  const create = useCreateQuote();
  const minimumCents = minimumFee?.amountCents ?? null;
  // What is typed is kept until the quote is sent: a session that ends loses nothing.
  const draft = useFormDraft<QuoteValues>(`quote:${requestId}`, 'professional');
  const {
    register,
    control,
    handleSubmit,
    setError,
    getValues,
    setValue,
    watch,
    formState: { errors, isSubmitted },
  } = useForm<QuoteValues>({
    defaultValues: {
      hours: '',
      fee: minimumCents !== null ? centsToDollarsText(minimumCents, language) : '',
      surge: false,
      addTaxes: taxRegistered,
      arrival: '',
      ...draft.restored,
    },
  });
  useDraftAutosave(watch, draft);
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });
  const problem = create.error ? readRpcError(create.error) : null;

  const onSubmit = handleSubmit(({ hours, fee, surge, addTaxes, arrival }) => {
    server.clear();
    const read = readArrival(arrival, emergency);
    create.mutate(
      {
        repairRequestId: requestId,
        estimatedMinutes: parseHours(hours) ?? 0,
        fee: { amountCents: parseDollars(fee, language) ?? 0n, currency: 'CAD' },
        surge,
        addTaxes: taxRegistered && addTaxes,
        arrivalMinutes: 'minutes' in read ? read.minutes : undefined,
      },
      {
        onSuccess: () => {
          draft.clear();
          toaster.create({ type: 'success', title: t('quoteForm.sent') });
          void navigate(PROFESSIONAL_REQUEST_PATHS.applied);
        },
        onError: server.report,
      },
    );
  });

  const validateFee = (value: string) => {
    const cents = parseDollars(value, language);
    if (cents === null || cents <= 0n || cents > MAX_FEE_CENTS) {
      return t('quoteForm.errors.fee', {
        max: formatAmount(MAX_FEE_CENTS, 'CAD', language),
      });
    }
    const belowMinimum = minimumCents !== null && cents < minimumCents && !getValues('surge');
    return (
      !belowMinimum ||
      t('quoteForm.errors.belowMinimum', { minimum: formatMoney(minimumFee ?? undefined) })
    );
  };

  const validateArrival = (value: string) => {
    const read = readArrival(value, emergency);
    if (!('problem' in read)) return true;
    if (read.problem === 'required') return t('trip.form.required');
    return t(emergency ? 'trip.form.rangeEmergency' : 'trip.form.range', {
      min: formatFigure(i18n, MIN_ARRIVAL_MINUTES),
      max: formatFigure(i18n, maxArrivalMinutes(emergency)),
    });
  };
  const arrival = useWatch({ control, name: 'arrival' }) ?? '';

  if (isMembershipInactive(create.error)) {
    return <InactiveMembershipNotice professionalId={professionalId} />;
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="quote-heading">
      <Stack gap="5">
        <Text as="h2" id="quote-heading" fontSize="xl" fontWeight="semibold" color="brand.900">
          {t('quoteForm.heading')}
        </Text>
        {server.formError && (
          <FormAlert title={server.formError}>
            {problem?.reason === 'QUOTE_EXISTS' && (
              <AppLink to={PROFESSIONAL_REQUEST_PATHS.applied} color="brand.fg">
                {t('quoteForm.seeApplied')}
              </AppLink>
            )}
            {problem?.reason === 'TAX_REGISTRATION_REQUIRED' && (
              <AppLink to={PROFESSIONAL_PROFILE_FORM_PATH} color="brand.fg">
                {t('quoteForm.openProfile')}
              </AppLink>
            )}
          </FormAlert>
        )}
        <FormField
          label={t('quoteForm.hours')}
          helperText={t('quoteForm.hoursHelp')}
          error={errors.hours?.message}
          required
        >
          <Input
            inputMode="decimal"
            autoComplete="off"
            maxW="40"
            {...register('hours', {
              validate: (value) =>
                parseHours(value) !== null ||
                t('quoteForm.errors.hours', { max: formatFigure(i18n, MAX_ESTIMATE_HOURS) }),
            })}
          />
        </FormField>
        <Stack gap="2">
          <FormField
            label={t('trip.form.arrival')}
            helperText={t('trip.form.arrivalHelp')}
            error={errors.arrival?.message}
            required={emergency}
          >
            <Input
              inputMode="numeric"
              autoComplete="off"
              maxW="40"
              {...register('arrival', { validate: validateArrival })}
            />
          </FormField>
          <HStack gap="2" wrap="wrap" role="group" aria-label={t('trip.form.quickChoices')}>
            {quickArrivals(emergency).map((minutes) => (
              <Button
                key={minutes}
                type="button"
                size="sm"
                minH="11"
                variant={arrival.trim() === String(minutes) ? 'solid' : 'outline'}
                colorPalette="brand"
                aria-pressed={arrival.trim() === String(minutes)}
                onClick={() =>
                  setValue('arrival', String(minutes), {
                    shouldDirty: true,
                    shouldValidate: isSubmitted,
                  })
                }
              >
                {formatDuration(minutes, t, language)}
              </Button>
            ))}
          </HStack>
        </Stack>
        <FormField
          label={t('quoteForm.fee')}
          helperText={
            minimumFee
              ? t('quoteForm.feeHelp', { minimum: formatMoney(minimumFee) })
              : t('quoteForm.feeHelpNoMinimum')
          }
          error={errors.fee?.message}
          required
        >
          <Input
            inputMode="decimal"
            autoComplete="off"
            placeholder={centsToDollarsText(EXAMPLE_FEE_CENTS, language)}
            maxW="40"
            {...register('fee', { validate: validateFee })}
          />
        </FormField>
        <Choice
          control={control}
          name="surge"
          label={t('quoteForm.surge')}
          help={t('quoteForm.surgeHelp')}
        />
        {taxRegistered ? (
          <Choice
            control={control}
            name="addTaxes"
            label={t('quoteForm.addTaxes')}
            help={t('quoteForm.addTaxesHelp')}
          />
        ) : (
          <Text color="fg.muted" fontSize="sm">
            {t('quoteForm.noTaxNumber')}{' '}
            <AppLink to={PROFESSIONAL_PROFILE_FORM_PATH} color="brand.fg" inline>
              {t('quoteForm.addTaxNumber')}
            </AppLink>
          </Text>
        )}
        <HStack gap="3" wrap="wrap">
          <Button type="submit" colorPalette="accent" loading={create.isPending}>
            {t('quoteForm.send')}
          </Button>
          <LinkButton to={PROFESSIONAL_REQUEST_PATHS.view(requestId)} variant="outline">
            {t('common.cancel')}
          </LinkButton>
        </HStack>
      </Stack>
    </form>
  );
}

/** A yes/no choice of the quote form: its checkbox, and what it does under it. */
function Choice({
  control,
  name,
  label,
  help,
}: {
  control: Control<QuoteValues>;
  name: 'surge' | 'addTaxes';
  label: string;
  help: string;
}) {
  return (
    <Stack gap="1">
      <ToggleField control={control} name={name} label={label} kind="checkbox" />
      <Text color="fg.muted" fontSize="sm">
        {help}
      </Text>
    </Stack>
  );
}
