import { useState } from 'react';
import { useProblemMessage } from '@/components/form/use-problem-message';
import type { QuoteMembershipResponse } from '@/gen/repairs/billing/v1/billing_pb';
import { readRpcError } from '@/lib/rpc-error';
import { useQuoteMembership } from './api/quote-membership';
import { CouponForm } from './components/coupon-form';

export interface AppliedCoupon {
  code: string;
  quote: QuoteMembershipResponse;
}

/**
 * A coupon as a checkout page holds it: the coupon form, and the code the server accepted
 * with its quote (BillingService.QuoteMembership). A refused code shows its message and
 * leaves no coupon applied, so the total is back to the full price.
 */
export function useCoupon() {
  const problemMessage = useProblemMessage();
  const quote = useQuoteMembership();
  const [applied, setApplied] = useState<AppliedCoupon | null>(null);
  const [error, setError] = useState<string | null>(null);
  const apply = (code: string) => {
    setError(null);
    quote.mutate(
      { couponCode: code },
      {
        onSuccess: (reply) => setApplied({ code, quote: reply }),
        onError: (failure) => {
          setApplied(null);
          setError(problemMessage(readRpcError(failure)));
        },
      },
    );
  };
  const form = <CouponForm onApply={apply} applying={quote.isPending} error={error} />;
  return { applied, form };
}
