import { Button, Heading, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { EmptyState } from '@/components/empty-state';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { AppLink, LinkButton } from '@/components/ui/links';
import { SimpleTable, type Column } from '@/components/ui/simple-table';
import { toaster } from '@/components/ui/toast';
import type { Service } from '@/gen/repairs/content/v1/content_pb';
import { readRpcError } from '@/lib/rpc-error';
import { useLanguage } from '@/lib/use-language';
import { useServicesForAdmin } from '../api/list-services';
import { useReorderServices } from '../api/reorder-services';
import { useUpdateService } from '../api/update-service';
import { ServiceIcon } from '../components/service-icon';
import { SERVICE_PATHS } from '../paths';

type Direction = 'up' | 'down';
const STEP: Record<Direction, -1 | 1> = { up: -1, down: 1 };
const OTHER: Record<Direction, Direction> = { up: 'down', down: 'up' };
/** Refusals that mean the list shown is no longer the stored one. */
const STALE_LIST = new Set(['SERVICE_ORDER_INCOMPLETE', 'ETAG_MISMATCH']);

/** The active services' ids with the one at `index` moved one place `direction`. */
function moved(active: Service[], index: number, direction: Direction): string[] {
  const ids = active.map((service) => service.id);
  const [id] = ids.splice(index, 1);
  ids.splice(index + STEP[direction], 0, id!);
  return ids;
}

/**
 * /admin/service-list: the services offered, in catalogue order, each with its icon and names,
 * up and down buttons to reorder, Archive, Edit and Delete; then the archived ones apart, each
 * with Bring back.
 */
export function ServiceListPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const problemMessage = useProblemMessage();
  const archivedHeading = useId();
  const { data, isPending, error, refetch } = useServicesForAdmin();
  const reorder = useReorderServices();
  const update = useUpdateService();
  const failed = (failure: unknown) => {
    const problem = readRpcError(failure);
    // Someone else changed the catalogue since it was read: show theirs, to act on it again.
    const stale = STALE_LIST.has(problem.reason);
    if (stale) void refetch();
    toaster.create({
      type: 'error',
      title: stale ? t('serviceAdmin.listChanged') : problemMessage(problem),
    });
  };

  const services = data?.services ?? [];
  const active = services.filter((service) => service.active);
  const archived = services.filter((service) => !service.active);
  const nameOf = (service: Service) => service.name?.[language] || service.name?.en || '';

  // A moved row is drawn again in its new place: the button pressed keeps the focus there
  // (or its neighbour, at either end), so the keyboard can go on moving the same service.
  const buttons = useRef(new Map<string, HTMLButtonElement | null>());
  const [refocus, setRefocus] = useState<{ id: string; direction: Direction } | null>(null);
  useEffect(() => {
    if (!refocus) return;
    const button = (direction: Direction) => buttons.current.get(`${refocus.id}:${direction}`);
    const pressed = button(refocus.direction);
    (pressed && !pressed.disabled ? pressed : button(OTHER[refocus.direction]))?.focus();
  }, [refocus, data]);

  const move = (service: Service, direction: Direction) => {
    // Buttons stay enabled while a move is saved (a disabled button drops the focus).
    if (reorder.isPending) return;
    const index = active.indexOf(service);
    reorder.mutate(
      { serviceIds: moved(active, index, direction) },
      {
        onSuccess: () => {
          setRefocus({ id: service.id, direction });
          toaster.create({
            type: 'success',
            title: t('serviceAdmin.moved', {
              name: nameOf(service),
              position: index + 1 + STEP[direction],
            }),
          });
        },
        onError: failed,
      },
    );
  };
  const setActive = (service: Service, on: boolean) =>
    update.mutate(
      { id: service.id, etag: service.etag, active: on, updateMask: { paths: ['active'] } },
      {
        onSuccess: () =>
          toaster.create({
            type: 'success',
            title: t(on ? 'serviceAdmin.restored' : 'serviceAdmin.archived', {
              name: nameOf(service),
            }),
          }),
        onError: failed,
      },
    );
  const changing = (service: Service) => update.isPending && update.variables.id === service.id;

  const iconAndNames: Column<Service>[] = [
    {
      header: t('serviceAdmin.icon'),
      cell: (service) => (
        <ServiceIcon service={{ ...service, name: nameOf(service), description: '', icon: null }} />
      ),
    },
    {
      header: t('serviceAdmin.names'),
      cell: (service) => (
        <Stack gap="0">
          <AppLink
            to={SERVICE_PATHS.edit(service.id)}
            lang="en"
            color="brand.fg"
            fontWeight="semibold"
          >
            {service.name?.en}
          </AppLink>
          <Text lang="fr" color="fg.muted">
            {service.name?.fr}
          </Text>
        </Stack>
      ),
    },
  ];
  const actionsColumn: Column<Service> = {
    header: t('common.actions'),
    hiddenHeader: true,
    cell: (service) => (
      <HStack gap="2">
        {/* An active service is archived, an archived one brought back. */}
        <Button
          size="sm"
          variant={service.active ? 'outline' : 'solid'}
          colorPalette={service.active ? 'gray' : 'brand'}
          aria-label={t(
            service.active ? 'serviceAdmin.archiveLabel' : 'serviceAdmin.bringBackLabel',
            {
              name: nameOf(service),
            },
          )}
          loading={changing(service)}
          onClick={() => setActive(service, !service.active)}
        >
          {t(service.active ? 'serviceAdmin.archive' : 'serviceAdmin.bringBack')}
        </Button>
        <LinkButton
          to={SERVICE_PATHS.edit(service.id)}
          size="sm"
          variant="outline"
          aria-label={t('serviceAdmin.editLabel', { name: nameOf(service) })}
        >
          {t('serviceAdmin.edit')}
        </LinkButton>
        <LinkButton
          to={SERVICE_PATHS.remove(service.id)}
          size="sm"
          variant="outline"
          colorPalette="red"
          aria-label={t('serviceAdmin.deleteLabel', { name: nameOf(service) })}
        >
          {t('common.delete')}
        </LinkButton>
      </HStack>
    ),
  };
  const moveButton = (service: Service, index: number, direction: Direction) => (
    <IconButton
      ref={(element) => {
        buttons.current.set(`${service.id}:${direction}`, element);
      }}
      size="sm"
      variant="outline"
      aria-label={t(direction === 'up' ? 'serviceAdmin.moveUp' : 'serviceAdmin.moveDown', {
        name: nameOf(service),
      })}
      disabled={direction === 'up' ? index === 0 : index === active.length - 1}
      onClick={() => move(service, direction)}
    >
      {direction === 'up' ? <ArrowUp aria-hidden /> : <ArrowDown aria-hidden />}
    </IconButton>
  );

  const activeColumns: Column<Service>[] = [
    { header: t('serviceAdmin.position'), cell: (service) => active.indexOf(service) + 1 },
    ...iconAndNames,
    {
      header: t('serviceAdmin.order'),
      cell: (service) => {
        const index = active.indexOf(service);
        return (
          <HStack gap="1">
            {moveButton(service, index, 'up')}
            {moveButton(service, index, 'down')}
          </HStack>
        );
      },
    },
    actionsColumn,
  ];

  return (
    <Stack gap="6">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <PageTitle title={t('pages.adminServiceList')} />
        <LinkButton to={SERVICE_PATHS.add} colorPalette="accent">
          {t('pages.adminAddService')}
        </LinkButton>
      </HStack>
      {isPending && <RouteLoader />}
      {error ? <RpcErrorAlert error={error} /> : null}
      {data && active.length === 0 && <EmptyState title={t('serviceAdmin.none')} />}
      {active.length > 0 && (
        <SimpleTable
          caption={t('pages.adminServiceList')}
          columns={activeColumns}
          rows={active}
          rowKey={(service) => service.id}
        />
      )}
      {archived.length > 0 && (
        <Stack as="section" aria-labelledby={archivedHeading} gap="3">
          <Heading as="h2" id={archivedHeading} size="lg" color="brand.900">
            {t('serviceAdmin.archivedHeading')}
          </Heading>
          <Text color="fg.muted">{t('serviceAdmin.archivedHelp')}</Text>
          <SimpleTable
            caption={t('serviceAdmin.archivedHeading')}
            columns={[...iconAndNames, actionsColumn]}
            rows={archived}
            rowKey={(service) => service.id}
          />
        </Stack>
      )}
    </Stack>
  );
}
