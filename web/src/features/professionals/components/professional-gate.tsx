import { useContext, useEffect, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { LocalizedNavigate } from '@/components/localized-navigation';
import { RouteLoader } from '@/components/route-loader';
import {
  PHONE_STEP_PATHS,
  PROFESSIONAL_DASHBOARD_PATH,
  PROFESSIONAL_PROFILE_FORM_PATH,
  professionalDetails,
  statusOf,
} from '@/features/accounts';
import {
  PROFESSIONAL_STATUS_PATHS,
  readProfessionalStatus,
  refreshProfessionalDetails,
} from '@/lib/session';
import { browserStore } from '@/lib/storage';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useProfessional } from '../api/get-professional';
import { ProfessionalContext } from '../professional-context';

interface ProfessionalGateProps {
  /**
   * On the phone step ('phone') or the code step ('code'): a professional whose phone is
   * already verified goes to the dashboard (phone step) or the profile form (code step).
   * Elsewhere a professional without a verified phone goes to the phone step.
   */
  step?: 'phone' | 'code';
  /** The request and order screens: only approved professionals; others see their status. */
  requireApproval?: boolean;
  children?: ReactNode;
}

/**
 * Reads the signed-in professional from the server (AccountsService.GetProfessional) before
 * the page shows, sends them where their phone and approval state say, keeps the session's
 * stored state up to date and shares the account with the page. When the account cannot be
 * read (other than an ended session), the stored state decides.
 */
export function ProfessionalGate({
  step,
  requireApproval = false,
  children,
}: ProfessionalGateProps) {
  // A gate inside another one (the work screens) uses what the outer gate read.
  const outer = useContext(ProfessionalContext);
  const id = useSignedInId('professional');
  const { data, isPending } = useProfessional(outer ? null : id);
  const professional = outer ? outer.professional : (data?.professional ?? null);

  useEffect(() => {
    if (professional && !outer) {
      refreshProfessionalDetails(professionalDetails(professional), browserStore());
    }
  }, [professional, outer]);

  if (!outer && id && isPending) return <RouteLoader />;
  const status = professional
    ? statusOf(professional.state)
    : readProfessionalStatus(browserStore());

  if (professional) {
    if (step && professional.phoneVerified) {
      const next = step === 'phone' ? PROFESSIONAL_DASHBOARD_PATH : PROFESSIONAL_PROFILE_FORM_PATH;
      return <LocalizedNavigate to={next} replace />;
    }
    if (!step && !professional.phoneVerified) {
      return <LocalizedNavigate to={PHONE_STEP_PATHS.professional(professional.id)} replace />;
    }
  }
  const statusPage = requireApproval ? PROFESSIONAL_STATUS_PATHS[status] : null;
  if (statusPage) return <LocalizedNavigate to={statusPage} replace />;

  return (
    <ProfessionalContext value={{ professional, status }}>
      {children ?? <Outlet />}
    </ProfessionalContext>
  );
}
