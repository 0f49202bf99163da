import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { toaster } from '@/components/ui/toast';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { readRpcError } from '@/lib/rpc-error';
import { useCancelRepairRequest } from '../api/cancel-repair-request';
import { REQUEST_PATHS } from '../paths';

/**
 * Deletes (cancels) the customer's open request: resolves once done, saying 'Deleted
 * Successfully' and going back to the pending requests; rejects after a toast saying why not.
 */
export function useDeleteRequest() {
  const { t } = useTranslation();
  const navigate = useLocalizedNavigate();
  const problemMessage = useProblemMessage();
  const cancel = useCancelRepairRequest();
  const remove = async (id: string) => {
    try {
      await cancel.mutateAsync({ id });
    } catch (failure) {
      toaster.create({ type: 'error', title: problemMessage(readRpcError(failure)) });
      throw failure;
    }
    toaster.create({ type: 'success', title: t('requests.deleted') });
    void navigate(REQUEST_PATHS.pending, { replace: true });
  };
  return { remove, deleting: cancel.isPending };
}
