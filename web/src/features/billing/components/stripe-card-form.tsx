import { Box, Button, Field, Stack } from '@chakra-ui/react';
import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { FormAlert } from '@/components/ui/form-alert';
import { readRpcError } from '@/lib/rpc-error';
import { useLanguage } from '@/lib/use-language';
import { stripeFor } from '../stripe';

interface StripeCardFormProps {
  publishableKey: string;
  submitLabel: string;
  busy: boolean;
  /** Pays with the Stripe PaymentMethod id (`pm_...`); a rejection is shown in the form. */
  onPay: (paymentMethodId: string) => Promise<unknown>;
}

/**
 * Stripe Elements' card field: the card number never reaches our servers, only the
 * PaymentMethod Stripe makes of it. Stripe words its own field errors in the page's language.
 */
export function StripeCardForm({ publishableKey, submitLabel, busy, onPay }: StripeCardFormProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const problemMessage = useProblemMessage();
  const errorId = useId();
  const mount = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState<{ stripe: Stripe; card: StripeCardElement } | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    let card: StripeCardElement | null = null;
    let cancelled = false;
    stripeFor(publishableKey, language)
      .then((stripe) => {
        if (cancelled || !mount.current) return;
        if (!stripe) throw new Error('Stripe.js did not load');
        card = stripe.elements({ locale: language }).create('card');
        card.on('change', (event) => setFieldError(event.error?.message ?? null));
        card.mount(mount.current);
        setReady({ stripe, card });
      })
      .catch(() => !cancelled && setUnavailable(true));
    return () => {
      cancelled = true;
      card?.destroy();
    };
  }, [publishableKey, language]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setFormError(null);
    setCreating(true);
    try {
      const { paymentMethod, error } = await ready.stripe.createPaymentMethod({
        type: 'card',
        card: ready.card,
      });
      if (error || !paymentMethod) {
        setFieldError(error?.message ?? t('billing.errors.cardRequired'));
        return;
      }
      await onPay(paymentMethod.id);
    } catch (failure) {
      setFormError(problemMessage(readRpcError(failure)));
    } finally {
      setCreating(false);
    }
  };

  if (unavailable) return <FormAlert title={t('billing.stripeUnavailable')} />;
  return (
    <Stack gap="4" borderWidth="1px" borderRadius="lg" p="5" bg="bg">
      {formError && <FormAlert title={formError} />}
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack gap="4" align="stretch">
          <Field.Root invalid={Boolean(fieldError)} required>
            <Field.Label>
              {t('billing.card')}
              <Field.RequiredIndicator />
            </Field.Label>
            {/* Stripe's iframe holds the inputs and their own labels for screen readers. */}
            <Box
              ref={mount}
              data-testid="stripe-card"
              aria-describedby={fieldError ? errorId : undefined}
              borderWidth="1px"
              borderRadius="md"
              px="3"
              py="2.5"
              maxW="md"
            />
            {fieldError && (
              <Field.HelperText id={errorId} color="fg.error">
                {fieldError}
              </Field.HelperText>
            )}
          </Field.Root>
          <Button
            type="submit"
            colorPalette="accent"
            alignSelf="flex-start"
            disabled={!ready}
            loading={busy || creating}
          >
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
