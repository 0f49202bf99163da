import { lazy, Suspense, useDeferredValue, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { LocalizedNavigate } from '@/components/localized-navigation';
import { RouteLoader } from '@/components/route-loader';
import { SmsUpdates } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { CUSTOMER_HOME_PATH, PHONE_STEP_PATHS } from '../account-paths';
import { useCustomer } from '../api/get-customer';

/** Asked once per account: its code (a dialog's) loads when it is to be asked. */
const SmsUpdatesDialog = lazy(() =>
  import('./sms-updates-dialog').then((module) => ({ default: module.SmsUpdatesDialog })),
);

interface CustomerGateProps {
  /**
   * On the phone and code steps: a customer whose phone is already verified goes on to
   * create a request. Elsewhere a customer without a verified phone goes to the phone step.
   */
  phoneStep?: boolean;
  children?: ReactNode;
}

/**
 * Checks the signed-in customer with the server (AccountsService.GetCustomer) before the page
 * shows, and asks once whether they want SMS updates. When the account cannot be read for
 * another reason than an ended session, the page shows and the server refuses what it must.
 */
export function CustomerGate({ phoneStep = false, children }: CustomerGateProps) {
  const id = useSignedInId('customer');
  const { data, isPending } = useCustomer(id);
  // Once the account arrives, the area and its page are much to draw: drawn in the
  // background (a transition, in slices that leave the browser free to answer) rather
  // than in one long task.
  const waiting = useDeferredValue(Boolean(id) && isPending);
  if (waiting || (id && isPending)) return <RouteLoader />;

  const customer = data?.customer;
  if (customer && phoneStep && customer.phoneVerified) {
    return <LocalizedNavigate to={CUSTOMER_HOME_PATH} replace />;
  }
  if (customer && !phoneStep && !customer.phoneVerified) {
    return <LocalizedNavigate to={PHONE_STEP_PATHS.customer(customer.id)} replace />;
  }
  const askSms = !phoneStep && customer?.smsUpdates === SmsUpdates.NOT_ASKED;
  return (
    <>
      {children ?? <Outlet />}
      {askSms && (
        <Suspense fallback={null}>
          <SmsUpdatesDialog accountId={customer.id} />
        </Suspense>
      )}
    </>
  );
}
