import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { PageTitle } from '@/components/page-title';
import { MembershipStatus } from '@/components/professional/membership-notice';
import { FormAlert } from '@/components/ui/form-alert';
import { isAwaitingReview } from '@/lib/session';
import { useProfessionalAccount } from '../professional-context';

/**
 * /professional-dashboard: the heading, a 'Profile Review Pending!' banner while the profile
 * waits for review, and the membership: until when it is paid, or the inactive notice. The
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
      {professional && (
        <MembershipStatus
          professionalId={professional.id}
          active={professional.membershipActive}
          expireTime={professional.membershipExpireTime}
        />
      )}
      <EmptyState title={t('dashboard.latestRequests')}>{t('dashboard.comingSoon')}</EmptyState>
    </Stack>
  );
}
