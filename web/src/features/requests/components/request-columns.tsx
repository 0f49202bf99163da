import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RowActionLink, RowActions } from '@/components/ui/row-actions';
import type { Column } from '@/components/ui/simple-table';
import { useServiceNames } from '@/features/content';
import { Urgency, type RepairRequest } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { REQUEST_PATHS } from '../paths';
import { RequestMoreActions } from './request-more-actions';

/** The actions a list offers on each request; `remove` is Delete, in its More actions. */
type Link = 'view' | 'edit' | 'remove' | 'applications';

interface ColumnOptions {
  /** Adds the hired professional's name (the active and completed lists). */
  professional?: boolean;
  /** What a list adds after its links (Mark Completed, the review link). */
  actions?: (request: RepairRequest) => ReactNode;
}

/**
 * The columns of a customer's request lists: the service, when it was placed, whether it is
 * an emergency, and the links each list offers (each named with the request's service, so a
 * screen reader's list of links tells them apart).
 */
export function useCustomerRequestColumns(
  links: Link[],
  { professional = false, actions }: ColumnOptions = {},
): Column<RepairRequest>[] {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const serviceName = useServiceNames();
  const nameOf = (request: RepairRequest) => serviceName(request.serviceId, request.serviceName);
  const label: Record<
    Exclude<Link, 'remove'>,
    (service: string) => { text: string; name: string }
  > = {
    view: (service) => ({ text: t('requests.view'), name: t('requests.viewRequest', { service }) }),
    edit: (service) => ({ text: t('requests.edit'), name: t('requests.editRequest', { service }) }),
    applications: () => ({ text: t('requests.viewApplications'), name: '' }),
  };
  const target: Record<Exclude<Link, 'remove'>, (id: string) => string> = {
    view: REQUEST_PATHS.view,
    edit: REQUEST_PATHS.edit,
    applications: REQUEST_PATHS.applications,
  };
  return [
    { header: t('requests.service'), cell: nameOf },
    { header: t('requests.placed'), cell: (request) => formatTime(request.createTime) },
    {
      header: t('requests.immediate'),
      cell: (request) => (request.urgency === Urgency.IMMEDIATE ? t('common.yes') : t('common.no')),
    },
    ...(professional
      ? [
          {
            header: t('requests.professional'),
            cell: (request: RepairRequest) => request.hiredProfessionalName,
          },
        ]
      : []),
    {
      header: t('common.actions'),
      hiddenHeader: true,
      cell: (request) => (
        <RowActions>
          {links.map((link) => {
            if (link === 'remove') {
              return <RequestMoreActions key={link} request={request} subject={nameOf(request)} />;
            }
            const { text, name } = label[link](nameOf(request));
            return (
              <RowActionLink key={link} to={target[link](request.id)} label={name || undefined}>
                {text}
              </RowActionLink>
            );
          })}
          {actions?.(request)}
        </RowActions>
      ),
    },
  ];
}
