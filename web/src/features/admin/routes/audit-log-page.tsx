import { Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { PagedList } from '@/components/paged-list';
import { FormField } from '@/components/ui/form-field';
import { AppLink } from '@/components/ui/links';
import { SelectInput } from '@/components/ui/select-input';
import type { Column } from '@/components/ui/simple-table';
import { TextButton } from '@/components/ui/text-button';
import type { AuditEvent } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { NO_AUDIT_FILTER, useAuditEventsPage, type AuditFilter } from '../api/list-audit-events';
import { ADMIN_PATHS } from '../admin-actions';
import {
  AUDIT_ACTIONS,
  AUDIT_RECORD_TYPES,
  auditActionKey,
  auditActionRecords,
  auditChanges,
} from '../audit-actions';
import { AuditChanges } from '../components/audit-changes';
import { AuditOutcomeNote } from '../components/audit-outcome';

/** Where an event's record can be opened; none once it was deleted. */
function recordPath(event: AuditEvent): string | null {
  if (event.action.endsWith('.delete')) return null;
  if (event.targetType === 'professional') return ADMIN_PATHS.professional(event.targetId);
  if (event.targetType === 'customer') return ADMIN_PATHS.user(event.targetId);
  if (event.targetType === 'privacy_incident') return ADMIN_PATHS.privacyIncidents;
  return null;
}

/**
 * /admin/audit-log: what admins did, newest first (AccountsService.ListAuditEvents): who,
 * what, on which record, when, why, and each field before and after; narrowed by kind of
 * record, action, admin and a range of days.
 */
export function AuditLogPage() {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const me = useSignedInId('admin') ?? '';
  const [filter, setFilter] = useState<AuditFilter>(NO_AUDIT_FILTER);
  const pages = usePageTokens();
  const { data, isPending, error } = useAuditEventsPage(filter, pages.token);

  const narrow = (change: Partial<AuditFilter>) => {
    setFilter((current) => ({ ...current, ...change }));
    pages.reset();
  };
  const recordLabel = (type: string) => {
    const key = AUDIT_RECORD_TYPES[type];
    return key ? t(key) : type;
  };
  const actionLabel = (action: string) => {
    const key = auditActionKey(action);
    return key ? t(key) : action;
  };
  const adminLabel = (event: AuditEvent) =>
    event.adminId === me ? t('audit.you') : event.adminEmail || event.adminId;

  // Each action once: one written on several kinds of record names them all.
  const actionOptions = Object.entries(AUDIT_ACTIONS)
    .filter(([type]) => !filter.targetType || type === filter.targetType)
    .flatMap(([type, actions]) =>
      Object.entries(actions)
        .filter(([action]) => filter.targetType || auditActionRecords(action)[0] === type)
        .map(([action, key]) => ({
          value: action,
          label: filter.targetType
            ? t(key)
            : `${auditActionRecords(action).map(recordLabel).join(' / ')} – ${t(key)}`,
        })),
    );

  const columns: Column<AuditEvent>[] = [
    { header: t('audit.when'), cell: (event) => formatTime(event.createTime) },
    {
      header: t('audit.admin'),
      cell: (event) =>
        // No admin: a service account did it, or the server by itself (its housekeeping).
        !event.adminId ? (
          event.serviceAccountId ? (
            t('audit.serviceAccount', { name: event.serviceAccountName })
          ) : (
            t('audit.server')
          )
        ) : filter.adminId === event.adminId ? (
          adminLabel(event)
        ) : (
          <TextButton
            h="auto"
            onClick={() => narrow({ adminId: event.adminId })}
            aria-label={t('audit.onlyAdmin', { admin: adminLabel(event) })}
          >
            {adminLabel(event)}
          </TextButton>
        ),
    },
    { header: t('audit.action'), cell: (event) => actionLabel(event.action) },
    {
      header: t('audit.record'),
      cell: (event) => {
        const path = recordPath(event);
        const label = recordLabel(event.targetType);
        return (
          <Stack gap="0">
            <Text>{label}</Text>
            {path ? (
              <AppLink to={path} color="brand.fg" fontFamily="mono" fontSize="xs">
                {event.targetId}
              </AppLink>
            ) : (
              <Text fontFamily="mono" fontSize="xs" color="fg.muted">
                {event.targetId}
              </Text>
            )}
          </Stack>
        );
      },
    },
    {
      header: t('audit.details'),
      cell: (event) => (
        <Stack gap="1" minW="48">
          <AuditOutcomeNote event={event} />
          {event.reason && <Text>{event.reason}</Text>}
          <AuditChanges changes={auditChanges(event.beforeJson, event.afterJson)} />
        </Stack>
      ),
    },
  ];

  const narrowed = filter.action || filter.targetType || filter.adminId || filter.from || filter.to;

  return (
    <Stack gap="6">
      <PageTitle title={t('pages.adminAuditLog')} />
      <HStack as="search" gap="4" align="end" wrap="wrap">
        <FormField label={t('audit.recordFilter')}>
          <SelectInput
            width="2xs"
            options={[
              { value: '', label: t('audit.allRecords') },
              ...Object.keys(AUDIT_ACTIONS).map((type) => ({
                value: type,
                label: recordLabel(type),
              })),
            ]}
            value={filter.targetType}
            onChange={(event) => narrow({ targetType: event.target.value, action: '' })}
          />
        </FormField>
        <FormField label={t('audit.actionFilter')}>
          <SelectInput
            width="xs"
            options={[{ value: '', label: t('audit.allActions') }, ...actionOptions]}
            value={filter.action}
            onChange={(event) => narrow({ action: event.target.value })}
          />
        </FormField>
        <FormField label={t('audit.adminFilter')}>
          <SelectInput
            width="2xs"
            options={[
              { value: '', label: t('audit.allAdmins') },
              { value: me, label: t('audit.onlyMe') },
              ...(filter.adminId && filter.adminId !== me
                ? [{ value: filter.adminId, label: t('audit.chosenAdmin') }]
                : []),
            ]}
            value={filter.adminId}
            onChange={(event) => narrow({ adminId: event.target.value })}
          />
        </FormField>
        <FormField label={t('audit.fromDay')}>
          <Input
            type="date"
            width="44"
            value={filter.from}
            max={filter.to || undefined}
            onChange={(event) => narrow({ from: event.target.value })}
          />
        </FormField>
        <FormField label={t('audit.toDay')}>
          <Input
            type="date"
            width="44"
            value={filter.to}
            min={filter.from || undefined}
            onChange={(event) => narrow({ to: event.target.value })}
          />
        </FormField>
        {narrowed && (
          <Button variant="outline" onClick={() => narrow(NO_AUDIT_FILTER)}>
            {t('audit.clearFilters')}
          </Button>
        )}
      </HStack>
      <PagedList
        caption={t('pages.adminAuditLog')}
        emptyTitle={narrowed ? t('audit.noneMatching') : t('audit.none')}
        columns={columns}
        rowKey={(event) => event.id}
        rows={data?.events}
        nextPageToken={data?.nextPageToken ?? ''}
        isPending={isPending}
        error={error}
        pages={pages}
      />
    </Stack>
  );
}
