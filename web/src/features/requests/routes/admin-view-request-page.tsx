import { Heading, List, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PagedList } from '@/components/paged-list';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { AppLink } from '@/components/ui/links';
import type { Column } from '@/components/ui/simple-table';
import {
  DeliveryState,
  NotificationChannel,
  type Notification,
  type RepairRequestMatch,
} from '@/gen/repairs/matching/v1/matching_pb';
import type { TranslationKey } from '@/lib/translation-key';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useRepairRequest } from '../api/get-repair-request';
import { useRequestMatchesPage } from '../api/list-repair-request-matches';
import { RequestFacts } from '../components/request-facts';
import { RequestPhotos } from '../components/request-photos';
import { REQUEST_PATHS } from '../paths';

const CHANNEL_KEYS: Partial<Record<NotificationChannel, TranslationKey>> = {
  [NotificationChannel.EMAIL]: 'requests.admin.channels.email',
  [NotificationChannel.SMS]: 'requests.admin.channels.sms',
};

const DELIVERY_KEYS: Partial<Record<DeliveryState, TranslationKey>> = {
  [DeliveryState.PENDING]: 'requests.admin.delivery.pending',
  [DeliveryState.SENT]: 'requests.admin.delivery.sent',
  [DeliveryState.PARKED]: 'requests.admin.delivery.parked',
  [DeliveryState.EXPIRED]: 'requests.admin.delivery.expired',
  [DeliveryState.PURGED]: 'requests.admin.delivery.purged',
};

/** One notification: 'Email: Sent (1 try)', with the provider's last error when it failed. */
function NotificationLine({ notification }: { notification: Notification }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const channel = CHANNEL_KEYS[notification.channel];
  const state = DELIVERY_KEYS[notification.state];
  const parts = [
    `${channel ? t(channel) : ''}${channel ? ' – ' : ''}${state ? t(state) : ''}`,
    t('requests.admin.attempts', { count: notification.attempts }),
    formatTime(notification.finishTime ?? notification.createTime),
    notification.lastError,
  ];
  return <List.Item>{parts.filter(Boolean).join(' · ')}</List.Item>;
}

function MatchesSection({ requestId }: { requestId: string }) {
  const { t } = useTranslation();
  const pages = usePageTokens();
  const { data, isPending, error } = useRequestMatchesPage(requestId, pages.token);
  const columns: Column<RepairRequestMatch>[] = [
    {
      header: t('requests.admin.professional'),
      cell: (match) => (
        <AppLink
          to={`/admin/view-professional/${encodeURIComponent(match.professionalId)}`}
          color="brand.fg"
        >
          {match.professionalName}
        </AppLink>
      ),
    },
    {
      header: t('requests.open.distance'),
      cell: (match) => t('requests.open.distanceKm', { count: match.distanceKm }),
    },
    {
      header: t('requests.admin.notifications'),
      cell: (match) => (
        <List.Root listStyle="none" gap="1">
          {match.notifications.map((notification) => (
            <NotificationLine key={`${notification.channel}`} notification={notification} />
          ))}
        </List.Root>
      ),
    },
  ];
  return (
    <Stack as="section" gap="4" aria-labelledby="matches-heading">
      <Heading as="h2" id="matches-heading" size="lg" color="brand.900">
        {t('requests.admin.matches')}
      </Heading>
      <PagedList
        caption={t('requests.admin.matchesCaption')}
        emptyTitle={t('requests.admin.noMatches')}
        columns={columns}
        rowKey={(match) => match.professionalId}
        rows={data?.matches}
        nextPageToken={data?.nextPageToken ?? ''}
        isPending={isPending}
        error={error}
        pages={pages}
      />
    </Stack>
  );
}

/**
 * /admin/view-request/{id}: the request, its photos of the damage, whom it matched, and how
 * each was notified.
 */
export function AdminViewRequestPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data, isPending, error } = useRepairRequest(id);
  const request = data?.repairRequest;
  return (
    <Stack gap="8" maxW="4xl">
      <AppLink to={REQUEST_PATHS.adminList} color="brand.fg">
        {t('requests.backToList')}
      </AppLink>
      <PageTitle title={t('pages.adminViewRequest')} />
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {request && (
        <>
          <RequestFacts request={request} />
          <RequestPhotos request={request} editable={false} />
          <MatchesSection requestId={request.id} />
        </>
      )}
    </Stack>
  );
}
