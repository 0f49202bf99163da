import { useTranslation } from 'react-i18next';
import { FactsList } from '@/components/ui/facts-list';
import { useServiceNames } from '@/features/content';
import { Urgency, type RepairRequest } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { addressText } from '@/lib/address';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { RequestStateBadge } from './state-badge';

/** A request's full address on lines (the customer and admins see the street). */
const addressLines = (request: RepairRequest) =>
  request.location.case === 'address' ? addressText(request.location.value, '\n') : '';

/** What a request is, as its customer and admins see it. */
export function RequestFacts({ request }: { request: RepairRequest }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const serviceName = useServiceNames();
  return (
    <FactsList
      facts={[
        [t('requests.service'), serviceName(request.serviceId, request.serviceName)],
        [t('requests.taskDescription'), request.description],
        [
          t('requests.immediate'),
          request.urgency === Urgency.IMMEDIATE ? t('common.yes') : t('common.no'),
        ],
        [t('requests.address'), addressLines(request)],
        [t('requests.state'), <RequestStateBadge key="state" state={request.state} />],
        [t('requests.placed'), formatTime(request.createTime)],
        [t('requests.applications'), String(request.quoteCount)],
      ]}
    />
  );
}
