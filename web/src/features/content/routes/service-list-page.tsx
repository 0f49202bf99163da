import { Badge, HStack, IconButton, Stack, Switch, Text } from '@chakra-ui/react';
import { ArrowDown, ArrowUp } from 'lucide-react';
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

/** The active services' ids with the one at `index` moved by `by` places. */
function moved(active: Service[], index: number, by: -1 | 1): string[] {
  const ids = active.map((service) => service.id);
  const [id] = ids.splice(index, 1);
  ids.splice(index + by, 0, id!);
  return ids;
}

/**
 * /admin/service-list: the catalogue in its order, each service with its icon, names, an
 * active switch (archive or bring back), up and down buttons to reorder, Edit and Delete.
 */
export function ServiceListPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const problemMessage = useProblemMessage();
  const { data, isPending, error } = useServicesForAdmin();
  const reorder = useReorderServices();
  const update = useUpdateService();
  const failed = (failure: unknown) =>
    toaster.create({ type: 'error', title: problemMessage(readRpcError(failure)) });

  const services = data?.services ?? [];
  const active = services.filter((service) => service.active);
  const nameOf = (service: Service) => service.name?.[language] || service.name?.en || '';
  const busy = reorder.isPending || update.isPending;

  const move = (service: Service, by: -1 | 1) => {
    const index = active.indexOf(service);
    reorder.mutate(
      { serviceIds: moved(active, index, by) },
      {
        onSuccess: () =>
          toaster.create({
            type: 'success',
            title: t('serviceAdmin.moved', { name: nameOf(service), position: index + 1 + by }),
          }),
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

  const columns: Column<Service>[] = [
    {
      header: t('serviceAdmin.position'),
      cell: (service) => (service.active ? active.indexOf(service) + 1 : '–'),
    },
    {
      header: t('serviceAdmin.icon'),
      cell: (service) => (
        <ServiceIcon service={{ ...service, name: nameOf(service), description: '', icon: null }} />
      ),
    },
    {
      header: t('serviceAdmin.nameEn'),
      cell: (service) => (
        <AppLink to={SERVICE_PATHS.edit(service.id)} color="brand.fg" fontWeight="semibold">
          {service.name?.en}
        </AppLink>
      ),
    },
    {
      header: t('serviceAdmin.nameFr'),
      cell: (service) => <Text lang="fr">{service.name?.fr}</Text>,
    },
    {
      header: t('serviceAdmin.offered'),
      cell: (service) => (
        <HStack gap="2">
          <Switch.Root
            colorPalette="brand"
            checked={service.active}
            disabled={busy}
            onCheckedChange={({ checked }) => setActive(service, checked)}
          >
            <Switch.HiddenInput />
            <Switch.Control>
              <Switch.Thumb />
            </Switch.Control>
            <Switch.Label srOnly>
              {t('serviceAdmin.offeredLabel', { name: nameOf(service) })}
            </Switch.Label>
          </Switch.Root>
          {!service.active && <Badge colorPalette="gray">{t('serviceAdmin.archivedBadge')}</Badge>}
        </HStack>
      ),
    },
    {
      header: t('serviceAdmin.order'),
      cell: (service) => {
        if (!service.active) return null;
        const index = active.indexOf(service);
        return (
          <HStack gap="1">
            <IconButton
              size="sm"
              variant="outline"
              aria-label={t('serviceAdmin.moveUp', { name: nameOf(service) })}
              disabled={busy || index === 0}
              onClick={() => move(service, -1)}
            >
              <ArrowUp aria-hidden />
            </IconButton>
            <IconButton
              size="sm"
              variant="outline"
              aria-label={t('serviceAdmin.moveDown', { name: nameOf(service) })}
              disabled={busy || index === active.length - 1}
              onClick={() => move(service, 1)}
            >
              <ArrowDown aria-hidden />
            </IconButton>
          </HStack>
        );
      },
    },
    {
      header: t('common.actions'),
      hiddenHeader: true,
      cell: (service) => (
        <HStack gap="2">
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
    },
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
      {data && services.length === 0 && <EmptyState title={t('serviceAdmin.none')} />}
      {services.length > 0 && (
        <SimpleTable
          caption={t('pages.adminServiceList')}
          columns={columns}
          rows={services}
          rowKey={(service) => service.id}
        />
      )}
    </Stack>
  );
}
