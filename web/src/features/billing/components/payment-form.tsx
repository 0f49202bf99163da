import { FormAlert } from '@/components/ui/form-alert';
import { useTranslation } from 'react-i18next';
import {
  PaymentMode,
  type GetPaymentConfigResponse,
  type Payment,
} from '@/gen/repairs/billing/v1/billing_pb';
import { AuthenticationStep } from './authentication-step';
import { CardForm } from './card-form';
import { StripeAuthentication } from './stripe-authentication';
import { StripeCardForm } from './stripe-card-form';

/** Stripe's publishable key when the server takes cards through Stripe. */
const stripeKey = (config: GetPaymentConfigResponse) =>
  config.mode === PaymentMode.STRIPE ? config.stripePublishableKey : '';

interface PaymentFormProps {
  config: GetPaymentConfigResponse;
  submitLabel: string;
  busy: boolean;
  /** Pays with what the gateway takes: a test card number, or a Stripe PaymentMethod id. */
  onPay: (paymentMethod: string) => Promise<unknown>;
}

/** The card form of the gateway in use: Stripe Elements, or the test gateway's TEST MODE form. */
export function PaymentForm({ config, ...form }: PaymentFormProps) {
  const { t } = useTranslation();
  const key = stripeKey(config);
  if (key) return <StripeCardForm publishableKey={key} {...form} />;
  if (config.mode === PaymentMode.TEST_GATEWAY) return <CardForm {...form} />;
  return <FormAlert title={t('billing.stripeUnavailable')} />;
}

interface PaymentAuthenticationProps {
  config: GetPaymentConfigResponse;
  payment: Payment;
  onAnswered: (payment: Payment) => void;
}

/** The cardholder's authentication: Stripe's 3-D Secure, or the test gateway's step. */
export function PaymentAuthentication({ config, ...step }: PaymentAuthenticationProps) {
  const key = stripeKey(config);
  return key ? (
    <StripeAuthentication publishableKey={key} {...step} />
  ) : (
    <AuthenticationStep {...step} />
  );
}
