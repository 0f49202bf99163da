import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FullPageLoader } from '@/components/full-page-loader';
import { AFTER_LOGOUT_PATHS, endSession, type Role } from '@/lib/session';
import { browserStore } from '@/lib/storage';

/**
 * The logout routes (/user-logout, /professional-logout, /admin/logout): clear the role's
 * stored session and the cached server data, then leave (customers and admins to the home
 * page, professionals to the professional page).
 */
export function Logout({ role }: { role: Role }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    endSession(role, browserStore());
    queryClient.clear();
    void navigate(AFTER_LOGOUT_PATHS[role], { replace: true });
  }, [role, navigate, queryClient]);

  return <FullPageLoader label={t('session.signingOut')} />;
}
