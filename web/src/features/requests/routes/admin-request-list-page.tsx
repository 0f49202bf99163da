import { HStack, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { PagedList } from '@/components/paged-list';
import { FormField } from '@/components/ui/form-field';
import { AppLink } from '@/components/ui/links';
import { SelectInput } from '@/components/ui/select-input';
import type { Column } from '@/components/ui/simple-table';
import { serviceName, useServiceNames, useServices } from '@/features/content';
import {
  RepairRequestState,
  Urgency,
  type RepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { useLanguage } from '@/lib/use-language';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useAllRequestsPage } from '../api/list-repair-requests';
import { RequestStateBadge } from '../components/state-badge';
import { REQUEST_PATHS } from '../paths';
import { REQUEST_STATES } from '../request-states';

/** /admin/request-list: every request, newest first, by state and by service, page by page. */
export function AdminRequestListPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const formatTime = useDateTimeFormat();
  const services = useServices();
  const nameOf = useServiceNames();
  const [state, setState] = useState<RepairRequestState>(RepairRequestState.UNSPECIFIED);
  const [serviceId, setServiceId] = useState('');
  const pages = usePageTokens();
  const { data, isPending, error } = useAllRequestsPage(state, serviceId, pages.token);

  const columns: Column<RepairRequest>[] = [
    {
      header: t('requests.service'),
      cell: (request) => (
        <AppLink to={REQUEST_PATHS.adminView(request.id)} color="brand.fg" fontWeight="semibold">
          {nameOf(request.serviceId, request.serviceName)}
        </AppLink>
      ),
    },
    {
      header: t('requests.address'),
      cell: (request) =>
        request.location.case === 'address'
          ? `${request.location.value.city}, ${request.location.value.province}`
          : '',
    },
    {
      header: t('requests.immediate'),
      cell: (request) => (request.urgency === Urgency.IMMEDIATE ? t('common.yes') : t('common.no')),
    },
    { header: t('requests.state'), cell: (request) => <RequestStateBadge state={request.state} /> },
    { header: t('requests.applications'), cell: (request) => request.quoteCount },
    { header: t('requests.placed'), cell: (request) => formatTime(request.createTime) },
  ];

  return (
    <Stack gap="6">
      <PageTitle title={t('pages.adminRequestList')} />
      <HStack gap="4" align="end" wrap="wrap">
        <FormField label={t('requests.admin.stateFilter')}>
          <SelectInput
            width="xs"
            options={[
              {
                value: String(RepairRequestState.UNSPECIFIED),
                label: t('requests.admin.allStates'),
              },
              ...REQUEST_STATES.map((entry) => ({
                value: String(entry.state),
                label: t(entry.key),
              })),
            ]}
            value={String(state)}
            onChange={(event) => {
              setState(Number(event.target.value) as RepairRequestState);
              pages.reset();
            }}
          />
        </FormField>
        <FormField label={t('requests.admin.serviceFilter')}>
          <SelectInput
            width="xs"
            options={[
              { value: '', label: t('requests.admin.allServices') },
              ...(services.data?.services ?? []).map((service) => ({
                value: service.id,
                label: serviceName(service, language),
              })),
            ]}
            value={serviceId}
            onChange={(event) => {
              setServiceId(event.target.value);
              pages.reset();
            }}
          />
        </FormField>
      </HStack>
      <PagedList
        caption={t('requests.admin.caption')}
        emptyTitle={t('requests.none')}
        columns={columns}
        rowKey={(request) => request.id}
        rows={data?.repairRequests}
        nextPageToken={data?.nextPageToken ?? ''}
        isPending={isPending}
        error={error}
        pages={pages}
      />
    </Stack>
  );
}
