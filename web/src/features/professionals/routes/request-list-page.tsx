import { Badge, HStack, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { PagedList } from '@/components/paged-list';
import { DamagePhotos, DamagePhotosLightbox } from '@/components/photos/damage-photos';
import { RowActionLink, RowActions } from '@/components/ui/row-actions';
import type { Column } from '@/components/ui/simple-table';
import { useServiceNames } from '@/features/content';
import { Urgency, type Photo } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import type { OpenRepairRequest } from '@/gen/repairs/matching/v1/matching_pb';
import { readRpcError } from '@/lib/rpc-error';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useOpenRequestsPage } from '../api/list-open-requests';
import { useWatchOpenRequests } from '../api/watch-open-requests';
import { InactiveMembershipNotice } from '../components/membership-notice';
import { useProfessionalAccount } from '../professional-context';
import { approximatePlace, PROFESSIONAL_REQUEST_PATHS } from '../professional-requests';

const idOf = (open: OpenRepairRequest) => open.repairRequest?.id ?? '';

/**
 * /request-list (Open Requests): the open requests matching the professional, nearest first,
 * with their distance and the thumbnails of their photos, page by page. New ones appear at
 * the top as they are placed (the server stream), marked New and announced politely. Without an active membership the
 * server refuses the list and the page shows the notice with its Buy Membership link.
 */
export function RequestListPage() {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const serviceName = useServiceNames();
  const nameOf = (open: OpenRepairRequest) =>
    serviceName(open.repairRequest?.serviceId ?? '', open.repairRequest?.serviceName);
  const { professional } = useProfessionalAccount();
  const professionalId = professional?.id ?? null;
  const pages = usePageTokens();
  const { data, isPending, error } = useOpenRequestsPage(professionalId, pages.token);
  const [arrived, setArrived] = useState<OpenRepairRequest[]>([]);
  // Kept by the page: the rows turn from a table to cards when a phone turns, the photo stays.
  const [lightbox, setLightbox] = useState<{ photos: Photo[]; index: number } | null>(null);
  const onArrival = useCallback(
    (open: OpenRepairRequest) =>
      setArrived((shown) => [open, ...shown.filter((other) => idOf(other) !== idOf(open))]),
    [],
  );
  const membershipInactive = error !== null && readRpcError(error).reason === 'MEMBERSHIP_INACTIVE';
  const watch = useWatchOpenRequests(membershipInactive ? null : professionalId, onArrival);

  const listed = data?.repairRequests ?? [];
  const fresh =
    pages.page === 1
      ? arrived.filter((open) => !listed.some((row) => idOf(row) === idOf(open)))
      : [];
  const rows = data ? [...fresh, ...listed] : undefined;
  const isNew = (open: OpenRepairRequest) => arrived.some((other) => idOf(other) === idOf(open));

  const columns: Column<OpenRepairRequest>[] = [
    {
      header: t('requests.service'),
      cell: (open) => (
        <Stack gap="1" maxW="xs">
          <HStack gap="2" wrap="wrap">
            <Text fontWeight="semibold">{nameOf(open)}</Text>
            {open.repairRequest?.urgency === Urgency.IMMEDIATE && (
              <Badge colorPalette="red" variant="solid">
                {t('requests.open.emergency')}
              </Badge>
            )}
            {isNew(open) && (
              <Badge colorPalette="accent" variant="solid">
                {t('requests.open.new')}
              </Badge>
            )}
          </HStack>
          {/* A line of what is wrong, so a request is told apart before opening it. */}
          <Text color="fg.muted" lineClamp={1} title={open.repairRequest?.description}>
            {open.repairRequest?.description}
          </Text>
        </Stack>
      ),
    },
    {
      header: t('photos.damage'),
      cell: (open) =>
        open.repairRequest?.photos.length ? (
          <DamagePhotos
            photos={open.repairRequest.photos}
            size="sm"
            limit={2}
            onOpen={(index) => setLightbox({ photos: open.repairRequest?.photos ?? [], index })}
          />
        ) : (
          ''
        ),
    },
    {
      header: t('requests.open.location'),
      cell: (open) => (open.repairRequest ? approximatePlace(open.repairRequest) : ''),
    },
    {
      header: t('requests.open.distance'),
      cell: (open) =>
        open.repairRequest?.location.case === 'approximateLocation'
          ? t('requests.open.distanceKm', {
              count: open.repairRequest.location.value.distanceKm,
            })
          : '',
    },
    {
      header: t('requests.open.placed'),
      cell: (open) => formatTime(open.repairRequest?.createTime),
    },
    {
      header: t('common.actions'),
      hiddenHeader: true,
      cell: (open) => {
        const service = nameOf(open);
        return (
          <RowActions>
            <RowActionLink
              to={PROFESSIONAL_REQUEST_PATHS.view(idOf(open))}
              label={t('requests.viewRequest', { service })}
            >
              {t('requests.view')}
            </RowActionLink>
            {open.applied ? (
              <Text color="fg.muted">{t('requests.open.applied')}</Text>
            ) : (
              <RowActionLink
                to={PROFESSIONAL_REQUEST_PATHS.apply(idOf(open))}
                label={t('requests.open.quoteOn', { service })}
                primary
              >
                {t('requests.open.quote')}
              </RowActionLink>
            )}
          </RowActions>
        );
      },
    },
  ];

  return (
    <Stack gap="6" data-live={watch}>
      <PageTitle title={t('pages.requestList')} />
      {membershipInactive && professionalId ? (
        <InactiveMembershipNotice professionalId={professionalId} />
      ) : (
        <>
          <Text color="fg.muted">
            {watch === 'lost' ? t('requests.open.streamLost') : t('requests.open.live')}
          </Text>
          <PagedList
            caption={t('requests.open.caption')}
            emptyTitle={t('requests.none')}
            columns={columns}
            rowKey={idOf}
            rows={rows}
            nextPageToken={data?.nextPageToken ?? ''}
            isPending={isPending}
            error={error}
            pages={pages}
          />
        </>
      )}
      <DamagePhotosLightbox
        shown={lightbox}
        onIndexChange={(index) => setLightbox((shown) => shown && { ...shown, index })}
        onClose={() => setLightbox(null)}
      />
      <VisuallyHidden aria-live="polite">
        {arrived.length > 0 ? t('requests.open.arrived', { count: arrived.length }) : ''}
      </VisuallyHidden>
    </Stack>
  );
}
