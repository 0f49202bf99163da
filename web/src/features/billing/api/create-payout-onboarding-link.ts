import { useMutation } from '@connectrpc/connect-query';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';

/** A Stripe Connect onboarding link for the professional (CreatePayoutOnboardingLink). */
export const useCreatePayoutOnboardingLink = () =>
  useMutation(BillingService.method.createPayoutOnboardingLink);
