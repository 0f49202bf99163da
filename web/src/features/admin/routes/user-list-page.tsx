import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { AppLink } from '@/components/ui/links';
import type { Column } from '@/components/ui/simple-table';
import type { Customer } from '@/gen/repairs/accounts/v1/accounts_pb';
import { formatPhone } from '@/lib/phone';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useCustomersPage } from '../api/list-customers';
import { ADMIN_PATHS } from '../admin-actions';
import { PagedList } from '@/components/paged-list';
import { useDateFormat } from '@/lib/use-date-format';
import { useLanguageName } from '../use-language-name';

/** /admin/user-list: customers, newest first, page by page. */
export function UserListPage() {
  const { t } = useTranslation();
  const formatDate = useDateFormat();
  const languageName = useLanguageName();
  const pages = usePageTokens();
  const { data, isPending, error } = useCustomersPage(pages.token);

  const columns: Column<Customer>[] = [
    {
      header: t('forms.name'),
      cell: (customer) => (
        <AppLink to={ADMIN_PATHS.user(customer.id)} color="brand.fg" fontWeight="semibold">
          {customer.name}
        </AppLink>
      ),
    },
    { header: t('forms.email'), cell: (customer) => customer.email },
    { header: t('forms.phone'), cell: (customer) => formatPhone(customer.phone) },
    { header: t('account.language'), cell: (customer) => languageName(customer.language) },
    { header: t('admin.created'), cell: (customer) => formatDate(customer.createTime) },
  ];

  return (
    <Stack gap="6">
      <PageTitle title={t('pages.adminUserList')} />
      <PagedList
        caption={t('pages.adminUserList')}
        emptyTitle={t('admin.noUsers')}
        columns={columns}
        rowKey={(customer) => customer.id}
        rows={data?.customers}
        nextPageToken={data?.nextPageToken ?? ''}
        isPending={isPending}
        error={error}
        pages={pages}
      />
    </Stack>
  );
}
