import { Badge, Button, Heading, Stack, Text } from '@chakra-ui/react';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { PagedList } from '@/components/paged-list';
import type { Column } from '@/components/ui/simple-table';
import { toaster } from '@/components/ui/toast';
import type { PrivacyIncident } from '@/gen/repairs/accounts/v1/accounts_pb';
import { formatFigure } from '@/lib/contract-limits';
import type { TranslationKey } from '@/lib/translation-key';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import { usePrivacyIncidentsPage } from '../api/list-privacy-incidents';
import { PrivacyIncidentForm } from '../components/privacy-incident-form';
import { notificationDue } from '../privacy-incident-values';

/** Whether an incident was amended after it was first recorded. */
const amended = (incident: PrivacyIncident): boolean =>
  incident.updatedAt !== undefined &&
  incident.recordedAt !== undefined &&
  timestampMs(incident.updatedAt) > timestampMs(incident.recordedAt);

/**
 * /admin/privacy-incidents: the register of privacy incidents (PIPEDA's breach records,
 * Quebec's Law 25 register), newest discovery first (AccountsService.ListPrivacyIncidents),
 * and the form that records one or amends one (RecordPrivacyIncident), for admins.
 */
export function PrivacyIncidentsPage() {
  const { t, i18n } = useTranslation();
  const formatTime = useDateTimeFormat();
  const registerId = useId();
  const pages = usePageTokens();
  const { data, isPending, error } = usePrivacyIncidentsPage(pages.token);
  const [amending, setAmending] = useState<PrivacyIncident | null>(null);

  const saved = () => {
    toaster.create({
      type: 'success',
      title: amending ? t('privacyIncidents.amended') : t('privacyIncidents.recorded'),
    });
    // A new incident may be discovered before those shown: the register starts over.
    if (!amending) pages.reset();
    setAmending(null);
  };

  const notified = (
    when: PrivacyIncident['peopleNotifiedAt'],
    done: TranslationKey,
    notYet: TranslationKey,
  ) => (when ? t(done, { when: formatTime(when) }) : t(notYet));

  const columns: Column<PrivacyIncident>[] = [
    {
      header: t('privacyIncidents.columns.discovered'),
      cell: (incident) => (
        <Stack gap="0">
          <Text>{formatTime(incident.discoveredAt)}</Text>
          <Text fontSize="sm" color="fg.muted">
            {t('privacyIncidents.occurred', { when: formatTime(incident.occurredAt) })}
          </Text>
        </Stack>
      ),
    },
    {
      header: t('privacyIncidents.columns.description'),
      cell: (incident) => (
        <Stack gap="1" minW="48">
          <Text lineClamp={3}>{incident.description}</Text>
          <Text fontSize="sm" color="fg.muted" lineClamp={2}>
            {incident.informationInvolved}
          </Text>
        </Stack>
      ),
    },
    {
      header: t('privacyIncidents.columns.people'),
      cell: (incident) =>
        incident.peopleAffected > 0
          ? formatFigure(i18n, incident.peopleAffected)
          : t('privacyIncidents.peopleUnknown'),
    },
    {
      header: t('privacyIncidents.columns.risk'),
      cell: (incident) =>
        incident.riskOfSeriousInjury ? (
          <Badge colorPalette="red">{t('common.yes')}</Badge>
        ) : (
          <Badge>{t('common.no')}</Badge>
        ),
    },
    {
      header: t('privacyIncidents.columns.notified'),
      cell: (incident) => (
        <Stack gap="1" align="start">
          {notificationDue(incident) && (
            <Badge colorPalette="orange">{t('privacyIncidents.notificationDue')}</Badge>
          )}
          <Text fontSize="sm">
            {notified(
              incident.commissionerNotifiedAt,
              'privacyIncidents.commissionerNotified',
              'privacyIncidents.commissionerNotYet',
            )}
          </Text>
          <Text fontSize="sm">
            {notified(
              incident.peopleNotifiedAt,
              'privacyIncidents.peopleNotified',
              'privacyIncidents.peopleNotYet',
            )}
          </Text>
        </Stack>
      ),
    },
    {
      header: t('privacyIncidents.columns.recorded'),
      cell: (incident) => (
        <Stack gap="0">
          <Text>{formatTime(incident.recordedAt)}</Text>
          {amended(incident) && (
            <Text fontSize="sm" color="fg.muted">
              {t('privacyIncidents.amendedOn', { when: formatTime(incident.updatedAt) })}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      header: t('common.actions'),
      hiddenHeader: true,
      cell: (incident) => (
        <Button
          size="sm"
          variant="outline"
          aria-label={t('privacyIncidents.amendTitle', {
            when: formatTime(incident.discoveredAt),
          })}
          onClick={() => setAmending(incident)}
        >
          {t('privacyIncidents.amend')}
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="6">
      <PageTitle title={t('pages.adminPrivacyIncidents')} />
      <Text maxW="3xl">{t('privacyIncidents.intro')}</Text>
      <Stack as="section" aria-labelledby={registerId} gap="4">
        <Heading as="h2" id={registerId} size="lg" color="brand.900">
          {t('privacyIncidents.register')}
        </Heading>
        <PagedList
          caption={t('pages.adminPrivacyIncidents')}
          emptyTitle={t('privacyIncidents.none')}
          columns={columns}
          rowKey={(incident) => incident.id}
          rows={data?.incidents}
          nextPageToken={data?.nextPageToken ?? ''}
          isPending={isPending}
          error={error}
          pages={pages}
        />
      </Stack>
      <PrivacyIncidentForm
        key={amending?.id ?? 'new'}
        amending={amending ?? undefined}
        onSaved={saved}
        onCancel={() => setAmending(null)}
      />
    </Stack>
  );
}
