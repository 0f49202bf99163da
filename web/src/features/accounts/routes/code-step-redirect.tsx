import { Navigate } from 'react-router';
import { PHONE_STEP_PATHS } from '@/lib/account-paths';
import { useSignedInId } from '@/lib/use-signed-in-id';

/** /professional-otp-verify without a phone: back to the phone step of the signed-in account. */
export function ProfessionalCodeStepRedirect() {
  const id = useSignedInId('professional') ?? '';
  return <Navigate to={PHONE_STEP_PATHS.professional(id)} replace />;
}
