import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { FullPageLoader } from '@/components/full-page-loader';
import { toaster } from '@/components/ui/toast';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { readRpcError } from '@/lib/rpc-error';
import { useApproveProfessional } from '../api/approve-professional';
import { ADMIN_PATHS } from '../admin-actions';

/**
 * /admin/approve-professional/{id}: an action route. It approves the professional once, says
 * how it went in a toast and goes back to the professionals list.
 */
export function ApproveProfessionalRoute() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useLocalizedNavigate();
  const problemMessage = useProblemMessage();
  const approve = useApproveProfessional();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    approve.mutate(
      { id },
      {
        onSuccess: ({ professional }) =>
          toaster.create({
            type: 'success',
            title: t('admin.approved', { name: professional?.name ?? '' }),
          }),
        onError: (error) =>
          toaster.create({ type: 'error', title: problemMessage(readRpcError(error)) }),
        onSettled: () => void navigate(ADMIN_PATHS.professionals, { replace: true }),
      },
    );
  }, [approve, id, navigate, problemMessage, t]);

  return <FullPageLoader label={t('admin.approving')} />;
}
