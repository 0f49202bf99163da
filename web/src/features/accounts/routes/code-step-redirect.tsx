import { LocalizedNavigate } from '@/components/localized-navigation';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { PHONE_STEP_PATHS } from '../account-paths';

/** /professional-otp-verify without a phone: back to the phone step of the signed-in account. */
export function ProfessionalCodeStepRedirect() {
  const id = useSignedInId('professional') ?? '';
  return <LocalizedNavigate to={PHONE_STEP_PATHS.professional(id)} replace />;
}
