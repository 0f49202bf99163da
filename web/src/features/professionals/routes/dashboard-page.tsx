import { Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageTitle } from '@/components/page-title';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FigureCards } from '@/components/ui/figure-cards';
import { FormAlert } from '@/components/ui/form-alert';
import { AppLink } from '@/components/ui/links';
import { MONTHLY_STATEMENT_PATH, receiptPath } from '@/features/billing';
import { useServiceNames } from '@/features/content';
import { UnreadConversations } from '@/features/conversations';
import { isAwaitingReview } from '@/lib/session';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { useProfessionalDashboard } from '../api/get-professional-dashboard';
import { AddLicenceLink } from '../components/add-licence-link';
import { AvailabilityPanel } from '../components/availability-panel';
import { FlashNotice } from '../components/flash-notice';
import { MembershipStatus } from '../components/membership-notice';
import { PendingChangeNotice } from '../components/pending-change';
import type { FlashState } from '../flash';
import { isMembershipInactive } from '../membership';
import { useProfessionalAccount } from '../professional-context';
import { approximatePlace, PROFESSIONAL_REQUEST_PATHS } from '../professional-requests';

/**
 * /professional-dashboard: the heading, a 'Profile Review Pending!' banner while the profile
 * waits for review (or a notice while a change of an approved one does, and the way to add a
 * licence once approved), the membership (until when it is paid, or the inactive notice; the
 * receipt of a membership just bought; the monthly statement once approved), and once
 * approved the availability (pause, resume, on call now: one tap each) and the four counters (requests received, quoted, hired, completed) with the latest
 * matching requests, counted by the server, and the messages: how many are unread and the
 * newest conversations.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const { professional, status } = useProfessionalAccount();
  const underReview = isAwaitingReview(status);
  const purchased = (useLocation().state as FlashState | null)?.receipt;
  return (
    <Stack gap="6">
      <PageTitle title={t('pages.professionalDashboard')} />
      <FlashNotice />
      {underReview && (
        <FormAlert status="info" title={t('professionalStatus.reviewPendingBanner')} />
      )}
      {professional && <PendingChangeNotice professional={professional} />}
      {status === 'approved' && <AddLicenceLink />}
      {professional && (
        <MembershipStatus
          professionalId={professional.id}
          active={professional.membershipActive}
          expireTime={professional.membershipExpireTime}
        />
      )}
      <HStack gap="6" wrap="wrap">
        {purchased && (
          <AppLink to={receiptPath(purchased, 'professional')} color="brand.fg">
            {t('receipts.ofPurchase')}
          </AppLink>
        )}
        {status === 'approved' && (
          <AppLink to={MONTHLY_STATEMENT_PATH} color="brand.fg">
            {t('statement.link')}
          </AppLink>
        )}
      </HStack>
      {professional && status === 'approved' && <AvailabilityPanel professional={professional} />}
      {professional && status === 'approved' && professional.membershipActive && (
        <Counters professionalId={professional.id} />
      )}
      {status === 'approved' && <UnreadConversations reader="professional" />}
    </Stack>
  );
}

/** The counters and the latest requests (the server's membership gate applies to them). */
function Counters({ professionalId }: { professionalId: string }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const serviceName = useServiceNames();
  const { data, isPending, error } = useProfessionalDashboard(professionalId);
  if (isMembershipInactive(error)) return null;
  const latest = data?.latestRepairRequests ?? [];
  return (
    <>
      {error && <RpcErrorAlert error={error} />}
      <FigureCards
        label={t('dashboard.counters')}
        busy={isPending}
        figures={
          data
            ? [
                [t('dashboard.received'), data.requestsReceived],
                [t('dashboard.quoted'), data.requestsQuoted],
                [t('dashboard.hired'), data.requestsHired],
                [t('dashboard.completed'), data.requestsCompleted],
              ]
            : []
        }
      />
      <Stack as="section" gap="3" aria-labelledby="latest-heading">
        <Heading as="h2" id="latest-heading" size="lg" color="brand.900">
          {t('dashboard.latestRequests')}
        </Heading>
        {data && latest.length === 0 && <EmptyState title={t('requests.none')} />}
        {latest.length > 0 && (
          <Stack as="ul" gap="2" listStyleType="none">
            {latest.map((request) => {
              const service = serviceName(request.serviceId, request.serviceName);
              return (
                <Stack
                  as="li"
                  key={request.id}
                  gap="0"
                  borderWidth="1px"
                  borderRadius="md"
                  bg="bg"
                  p="3"
                >
                  <AppLink
                    to={PROFESSIONAL_REQUEST_PATHS.view(request.id)}
                    color="brand.fg"
                    fontWeight="semibold"
                  >
                    {service}
                  </AppLink>
                  <Text color="fg.muted" fontSize="sm">
                    {approximatePlace(request)} · {formatTime(request.createTime)}
                  </Text>
                </Stack>
              );
            })}
          </Stack>
        )}
      </Stack>
    </>
  );
}
