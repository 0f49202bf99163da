import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FactsList } from '@/components/ui/facts-list';
import { AppLink } from '@/components/ui/links';
import { DataExportSection } from '@/features/accounts';
import { Role } from '@/gen/repairs/accounts/v1/accounts_pb';
import { formatPhone } from '@/lib/phone';
import { useCustomerForAdmin } from '../api/get-customer';
import { useDeleteCustomer } from '../api/delete-customer';
import { ADMIN_PATHS } from '../admin-actions';
import { DeleteButton } from '../components/delete-button';
import { useLanguageName } from '../use-language-name';

/**
 * /view-user/{id}: a customer's name, phone, email and preferred language; a copy of their
 * data prepared on their behalf; delete.
 */
export function ViewUserPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const languageName = useLanguageName();
  const { data, isPending, error } = useCustomerForAdmin(id);
  const remove = useDeleteCustomer();
  const customer = data?.customer;
  return (
    <Stack gap="6" maxW="2xl">
      <AppLink to={ADMIN_PATHS.users} color="brand.fg">
        {t('admin.backToUsers')}
      </AppLink>
      <PageTitle title={t('pages.viewUser')} />
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {customer && (
        <>
          <FactsList
            facts={[
              [t('forms.name'), customer.name],
              [t('forms.phone'), formatPhone(customer.phone) || t('professionalDetails.none')],
              [t('forms.email'), customer.email],
              [t('account.language'), languageName(customer.language)],
            ]}
          />
          <DataExportSection owner={{ accountId: customer.id, role: Role.CUSTOMER }} />
          <DeleteButton
            question={t('admin.deleteUserQuestion')}
            consequences={t('admin.deleteUserConsequences')}
            done={t('admin.userDeleted')}
            onDelete={() => remove.mutateAsync({ id: customer.id })}
            thenPath={ADMIN_PATHS.users}
          />
        </>
      )}
    </Stack>
  );
}
