import { Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { MoreActionsMenu } from '@/components/ui/more-actions-menu';
import type { RepairRequest } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useDeleteRequest } from './use-delete-request';

/**
 * The More actions of the customer's open request: Delete, asked first (saying that the
 * professionals who quoted will be told). `subject` names the request where a list holds
 * several.
 */
export function RequestMoreActions({
  request,
  subject,
}: {
  request: RepairRequest;
  subject?: string;
}) {
  const { t } = useTranslation();
  const deletion = useDeleteRequest();
  return (
    <MoreActionsMenu
      subject={subject}
      actions={[
        {
          value: 'delete',
          label: t('requests.deleteAction'),
          icon: <Trash2 aria-hidden />,
          danger: true,
          confirm: {
            title: t('requests.deleteQuestion'),
            body: t('requests.deleteBody'),
            confirmLabel: t('common.delete'),
            run: () => deletion.remove(request.id),
          },
        },
      ]}
    />
  );
}
