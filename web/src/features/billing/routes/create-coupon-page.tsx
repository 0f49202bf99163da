import { Button, HStack, Input, Stack } from '@chakra-ui/react';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useServerErrors } from '@/components/form/use-server-errors';
import { PageTitle } from '@/components/page-title';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { LinkButton } from '@/components/ui/links';
import { toaster } from '@/components/ui/toast';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { useCreateCoupon } from '../api/create-coupon';
import { COUPON_LIST_PATH } from '../paths';

interface CouponValues {
  code: string;
  percent: string;
  /** A date (YYYY-MM-DD): the last day the coupon applies; empty for never. */
  expiry: string;
  /** Empty for no limit. */
  limit: string;
}

const CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
const WHOLE = /^\d{1,9}$/;
const SERVER_FIELDS = {
  code: 'code',
  discount_percent: 'percent',
  expire_time: 'expiry',
  max_redemptions: 'limit',
} as const;
const REASON_FIELDS = { COUPON_CODE_TAKEN: 'code' } as const;

/** The end of the chosen day in the admin's time zone: the coupon applies all that day. */
const endOfDay = (date: string) => new Date(`${date}T23:59:59`);

/**
 * /admin/create-coupon: a code, a discount of 1 to 100 %, an optional last day and an
 * optional limit of uses (BillingService.CreateCoupon), then the coupon list.
 */
export function CreateCouponPage() {
  const { t } = useTranslation();
  const navigate = useLocalizedNavigate();
  const create = useCreateCoupon();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<CouponValues>({ defaultValues: { code: '', percent: '', expiry: '', limit: '' } });
  const server = useServerErrors(setError, {
    fields: SERVER_FIELDS,
    reasonFields: REASON_FIELDS,
  });

  const onSubmit = handleSubmit(({ code, percent, expiry, limit }) => {
    server.clear();
    create.mutate(
      {
        code: code.trim(),
        discountPercent: Number(percent),
        expireTime: expiry ? timestampFromDate(endOfDay(expiry)) : undefined,
        maxRedemptions: limit.trim() ? Number(limit) : 0,
      },
      {
        onSuccess: ({ coupon }) => {
          toaster.create({
            type: 'success',
            title: t('coupons.created', { code: coupon?.code ?? code.toUpperCase() }),
          });
          void navigate(COUPON_LIST_PATH);
        },
        onError: server.report,
      },
    );
  });

  return (
    <Stack gap="6" maxW="2xl">
      <PageTitle title={t('pages.adminCreateCoupon')} />
      {server.formError && <FormAlert title={server.formError} />}
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="4">
          <FormField
            label={t('coupons.code')}
            helperText={t('coupons.codeHelp')}
            error={errors.code?.message}
            required
          >
            <Input
              autoComplete="off"
              {...register('code', {
                validate: (value) =>
                  CODE_PATTERN.test(value.trim()) || t('coupons.errors.codeInvalid'),
              })}
            />
          </FormField>
          <FormField label={t('coupons.percent')} error={errors.percent?.message} required>
            <Input
              inputMode="numeric"
              maxW="32"
              {...register('percent', {
                validate: (value) => {
                  const percent = Number(value.trim());
                  return (
                    (WHOLE.test(value.trim()) && percent >= 1 && percent <= 100) ||
                    t('coupons.errors.percentInvalid')
                  );
                },
              })}
            />
          </FormField>
          <FormField
            label={t('coupons.expiry')}
            helperText={t('coupons.expiryHelp')}
            error={errors.expiry?.message}
          >
            <Input
              type="date"
              maxW="xs"
              {...register('expiry', {
                validate: (value) =>
                  !value || endOfDay(value) > new Date() || t('coupons.errors.expiryPast'),
              })}
            />
          </FormField>
          <FormField
            label={t('coupons.limit')}
            helperText={t('coupons.limitHelp')}
            error={errors.limit?.message}
          >
            <Input
              inputMode="numeric"
              maxW="32"
              {...register('limit', {
                validate: (value) =>
                  !value.trim() ||
                  (WHOLE.test(value.trim()) && Number(value) >= 1) ||
                  t('coupons.errors.limitInvalid'),
              })}
            />
          </FormField>
          <HStack gap="3">
            <Button type="submit" colorPalette="accent" loading={create.isPending}>
              {t('coupons.create')}
            </Button>
            <LinkButton to={COUPON_LIST_PATH} variant="outline">
              {t('common.cancel')}
            </LinkButton>
          </HStack>
        </Stack>
      </form>
    </Stack>
  );
}
