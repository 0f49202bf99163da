import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { AppLink } from '@/components/ui/links';
import { DataExportSection } from '@/features/accounts';
import { ProfessionalDetails } from '@/features/professionals';
import { Role } from '@/gen/repairs/accounts/v1/accounts_pb';
import { ADMIN_PATHS } from '../admin-actions';
import { useProfessionalForReview } from '../api/get-professional';
import { PendingChangeDecisions } from '../components/pending-change-decisions';
import { ProfessionalActions } from '../components/professional-actions';

/**
 * /admin/view-professional/{id}: the profile, its licences and the decisions it allows, and
 * beside the approved profile the change awaiting review with its own decisions; a copy of
 * their data prepared on their behalf.
 */
export function ViewProfessionalPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data, isPending, error } = useProfessionalForReview(id);
  const professional = data?.professional;
  return (
    <Stack gap="6" maxW="4xl">
      <AppLink to={ADMIN_PATHS.professionals} color="brand.fg">
        {t('admin.backToProfessionals')}
      </AppLink>
      <PageTitle title={t('pages.adminViewProfessional')} />
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {professional && (
        <>
          <ProfessionalActions professional={professional} />
          <AppLink to={ADMIN_PATHS.payouts(professional.id)} color="brand.fg">
            {t('admin.viewPayouts')}
          </AppLink>
          <ProfessionalDetails
            professional={professional}
            pendingChangeActions={<PendingChangeDecisions professional={professional} />}
          />
          <DataExportSection owner={{ accountId: professional.id, role: Role.PROFESSIONAL }} />
        </>
      )}
    </Stack>
  );
}
