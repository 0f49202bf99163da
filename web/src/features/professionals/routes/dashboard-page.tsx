import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { PageTitle } from '@/components/page-title';
import { FormAlert } from '@/components/ui/form-alert';
import { isAwaitingReview } from '@/lib/session';
import { InactiveMembershipNotice } from '../components/inactive-membership-notice';
import { useProfessionalAccount } from '../professional-context';

/**
 * /professional-dashboard: the heading, a 'Profile Review Pending!' banner while the profile
 * waits for review, and the inactive-membership notice until the membership is paid. The
 * counters and latest requests come with the marketplace.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const { professional, status } = useProfessionalAccount();
  return (
    <Stack gap="6">
      <PageTitle title={t('pages.professionalDashboard')} />
      {isAwaitingReview(status) && (
        <FormAlert status="info" title={t('professionalStatus.reviewPendingBanner')} />
      )}
      {professional && !professional.membershipActive && (
        <InactiveMembershipNotice professionalId={professional.id} />
      )}
      <EmptyState title={t('dashboard.latestRequests')}>{t('dashboard.comingSoon')}</EmptyState>
    </Stack>
  );
}
