import { Box, Button, HStack, Input, Stack } from '@chakra-ui/react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField } from '@/components/ui/form-field';
import { TextButton } from '@/components/ui/text-button';
import { QuoteMembershipRequestSchema } from '@/gen/repairs/billing/v1/billing_pb';
import { fitsMaxLen, limitOf } from '@/lib/contract-limits';
import { notBlank } from '@/lib/validation';

/** A coupon code as QuoteMembershipRequest.coupon_code takes it. */
const CODE = limitOf(QuoteMembershipRequestSchema, 'couponCode');

interface CouponFormProps {
  /** Asks the server about the code; `error` comes back when it cannot be used. */
  onApply: (code: string) => void;
  applying: boolean;
  /** Why the last code was refused ('Invalid or expired coupon.'). */
  error: string | null;
}

/**
 * 'Do you have a coupon?': a link-style button that reveals the coupon field and its Apply
 * button (a form of its own, so Enter applies the code).
 */
export function CouponForm({ onApply, applying, error }: CouponFormProps) {
  const { t, i18n } = useTranslation();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const submit = handleSubmit(({ code }) => onApply(code.trim()));

  return (
    <Stack gap="3" align="flex-start">
      <TextButton
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((shown) => !shown)}
      >
        {t('billing.haveCoupon')}
      </TextButton>
      {open && (
        <form id={panelId} noValidate onSubmit={submit} style={{ width: '100%' }}>
          <HStack gap="3" align="flex-start" wrap="wrap">
            <Box flex="1" minW="48" maxW="xs">
              <FormField
                label={t('billing.couponCode')}
                error={errors.code?.message ?? error ?? undefined}
              >
                <Input
                  autoFocus
                  autoComplete="off"
                  {...register('code', {
                    validate: (value) =>
                      !notBlank(value)
                        ? t('billing.errors.couponRequired')
                        : fitsMaxLen(i18n, CODE, value),
                  })}
                />
              </FormField>
            </Box>
            <Button type="submit" variant="outline" colorPalette="brand" mt="7" loading={applying}>
              {t('billing.apply')}
            </Button>
          </HStack>
        </form>
      )}
    </Stack>
  );
}
