import { Heading, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { PageTitle } from '@/components/page-title';
import { DamagePhotos } from '@/components/photos/damage-photos';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { EmailLink, PhoneLink } from '@/components/ui/contact-links';
import { FactsList } from '@/components/ui/facts-list';
import { AppLink } from '@/components/ui/links';
import { Pager } from '@/components/ui/pager';
import { useServiceNames } from '@/features/content';
import { JobConversation } from '@/features/conversations';
import {
  addressText,
  approximatePlace,
  InactiveMembershipNotice,
  isMembershipInactive,
  PROFESSIONAL_REQUEST_PATHS,
} from '@/features/professionals';
import {
  ProfessionalRepairRequestView,
  type QuotedRepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { formatHours } from '@/lib/duration';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { useLanguage } from '@/lib/use-language';
import { useMoneyFormat } from '@/lib/use-money-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { useProfessionalRequestsPage } from '../api/list-professional-repair-requests';
import { quotedRowKey } from '../components/quoted-request-columns';
import { ReleaseHire } from '../components/release-hire';

/**
 * /professional-active-requests: the jobs the professional was hired on and not yet marked
 * done, one card each, with what they need to go: the full street address and the
 * customer's name, phone and email (the request's JobContacts, sent to the hired
 * professional only), the fee and time quoted, the photos of the damage and the
 * conversation with the customer (opened in place, with its unread count), and "I can't make
 * it" when the job cannot go ahead (ReleaseHire).
 */
export function ActiveRequestsPage() {
  const { t } = useTranslation();
  const professionalId = useSignedInId('professional');
  const pages = usePageTokens();
  const { data, isPending, error } = useProfessionalRequestsPage(
    professionalId,
    ProfessionalRepairRequestView.ACTIVE,
    pages.token,
  );
  const jobs = data?.repairRequests ?? [];

  const body = () => {
    if (isPending) return <RouteLoader />;
    if (professionalId && isMembershipInactive(error)) {
      return <InactiveMembershipNotice professionalId={professionalId} />;
    }
    if (error) return <RpcErrorAlert error={error} />;
    if (jobs.length === 0) return <EmptyState title={t('requests.noRecords')} />;
    return (
      <Stack gap="4">
        <Stack as="ul" gap="4" listStyleType="none" aria-label={t('jobs.activeCaption')}>
          {jobs.map((job) => (
            <ActiveJob key={quotedRowKey(job)} job={job} />
          ))}
        </Stack>
        <Pager
          page={pages.page}
          nextToken={data?.nextPageToken ?? ''}
          onNext={pages.next}
          onPrevious={pages.previous}
        />
      </Stack>
    );
  };

  return (
    <Stack gap="6">
      <PageTitle title={t('pages.professionalActiveRequests')} />
      {body()}
    </Stack>
  );
}

/** One hired job: where, who to call, the terms quoted, the photos and the messages. */
function ActiveJob({ job }: { job: QuotedRepairRequest }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const formatMoney = useMoneyFormat();
  const formatTime = useDateTimeFormat();
  const serviceName = useServiceNames();
  const { repairRequest: request, quote } = job;
  if (!request) return null;
  const service = serviceName(request.serviceId, request.serviceName);
  const customer = request.contacts?.customer;
  const address = request.contacts?.address
    ? addressText(request.contacts.address)
    : approximatePlace(request);
  const headingId = `job-${request.id}`;

  return (
    <Stack
      as="li"
      gap="3"
      borderWidth="1px"
      borderRadius="lg"
      bg="bg"
      p={{ base: '4', md: '5' }}
      aria-labelledby={headingId}
    >
      <Heading as="h2" id={headingId} size="md" color="brand.900">
        {service}
      </Heading>
      <FactsList
        facts={[
          [t('requests.taskDescription'), request.description],
          [t('requests.address'), address],
          [t('requests.customer'), customer?.name ?? ''],
          [t('jobs.phone'), <PhoneLink key="phone" phone={customer?.phone ?? ''} />],
          [t('jobs.email'), <EmailLink key="email" email={customer?.email ?? ''} />],
          [t('jobs.columns.fee'), formatMoney(quote?.fee)],
          [t('jobs.columns.hours'), formatHours(quote?.estimatedMinutes ?? 0, language)],
          [t('jobs.hiredOn'), formatTime(request.hireTime)],
        ]}
      />
      <DamagePhotos photos={request.photos} size="sm" />
      <AppLink
        to={PROFESSIONAL_REQUEST_PATHS.view(request.id)}
        color="brand.fg"
        aria-label={t('requests.viewRequest', { service })}
        alignSelf="start"
      >
        {t('requests.view')}
      </AppLink>
      <JobConversation request={request} />
      <ReleaseHire request={request} as="professional" />
    </Stack>
  );
}
