import { Input, Stack } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FormField } from '@/components/ui/form-field';
import { PageTitle } from '@/components/page-title';
import { AppLink } from '@/components/ui/links';
import type { Column } from '@/components/ui/simple-table';
import type { Customer } from '@/gen/repairs/accounts/v1/accounts_pb';
import { formatPhone } from '@/lib/phone';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { MAX_CUSTOMER_QUERY, useCustomersPage } from '../api/list-customers';
import { ADMIN_PATHS } from '../admin-actions';
import { PagedList } from '@/components/paged-list';
import { useDateFormat } from '@/lib/use-date-format';
import { useLanguageName } from '../use-language-name';

/** How long typing must pause before the list is searched. */
export const SEARCH_DELAY_MS = 300;

/**
 * /admin/user-list: customers, newest first, page by page; a search by name, email or phone
 * kept in the address (`?q=`), so it survives a reload and can be shared.
 */
export function UserListPage() {
  const { t } = useTranslation();
  const formatDate = useDateFormat();
  const languageName = useLanguageName();
  const pages = usePageTokens();
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const [typed, setTyped] = useState(query);
  const settled = useDebouncedValue(typed.trim(), SEARCH_DELAY_MS);
  const { reset } = pages;
  useEffect(() => {
    if (settled === query) return;
    setParams(settled ? { q: settled } : {}, { replace: true });
    reset();
  }, [settled, query, setParams, reset]);
  const { data, isPending, error } = useCustomersPage(query, pages.token);

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
      <Stack as="search" maxW="md">
        <FormField label={t('admin.searchUsers')} helperText={t('admin.searchUsersHint')}>
          <Input
            type="search"
            value={typed}
            maxLength={MAX_CUSTOMER_QUERY}
            onChange={(event) => setTyped(event.target.value)}
          />
        </FormField>
      </Stack>
      <PagedList
        caption={t('pages.adminUserList')}
        emptyTitle={query ? t('admin.noUserMatches', { query }) : t('admin.noUsers')}
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
