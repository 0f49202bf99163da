import { Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { PagedList } from '@/components/paged-list';
import { FormField } from '@/components/ui/form-field';
import { AppLink } from '@/components/ui/links';
import { SelectInput } from '@/components/ui/select-input';
import type { Column } from '@/components/ui/simple-table';
import { StatusBadge } from '@/features/professionals';
import { ProfessionalState, type Professional } from '@/gen/repairs/accounts/v1/accounts_pb';
import { formatPhone } from '@/lib/phone';
import type { TranslationKey } from '@/lib/translation-key';
import { useDateFormat } from '@/lib/use-date-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import { ADMIN_PATHS } from '../admin-actions';
import { useProfessionalsPage } from '../api/list-professionals';

const FILTERS: { state: ProfessionalState; withPendingChange?: true; key: TranslationKey }[] = [
  { state: ProfessionalState.UNSPECIFIED, key: 'admin.filterAll' },
  { state: ProfessionalState.WAITING_FOR_APPROVAL, key: 'professionalStatus.waiting' },
  { state: ProfessionalState.PROFILE_UPDATED, key: 'professionalStatus.profileUpdated' },
  { state: ProfessionalState.APPROVED, key: 'professionalStatus.approved' },
  { state: ProfessionalState.DENIED, key: 'professionalStatus.denied' },
  { state: ProfessionalState.UNSPECIFIED, withPendingChange: true, key: 'pendingChange.heading' },
];

/**
 * /admin/professionals-list: professionals, newest first, by state (or those with a change
 * awaiting review), page by page.
 */
export function ProfessionalsListPage() {
  const { t } = useTranslation();
  const formatDate = useDateFormat();
  const [filter, setFilter] = useState(0);
  const pages = usePageTokens();
  const { state, withPendingChange = false } = FILTERS[filter] ?? FILTERS[0]!;
  const { data, isPending, error } = useProfessionalsPage(state, withPendingChange, pages.token);

  const columns: Column<Professional>[] = [
    {
      header: t('forms.name'),
      cell: (pro) => (
        <AppLink to={ADMIN_PATHS.professional(pro.id)} color="brand.fg" fontWeight="semibold">
          {pro.name}
        </AppLink>
      ),
    },
    { header: t('forms.email'), cell: (pro) => pro.email },
    { header: t('forms.phone'), cell: (pro) => formatPhone(pro.phone) },
    { header: t('admin.status'), cell: (pro) => <StatusBadge state={pro.state} /> },
    { header: t('admin.created'), cell: (pro) => formatDate(pro.createTime) },
  ];

  return (
    <Stack gap="6">
      <PageTitle title={t('pages.adminProfessionalsList')} />
      <FormField label={t('admin.filterLabel')}>
        <SelectInput
          width="xs"
          options={FILTERS.map((option, index) => ({
            value: String(index),
            label: t(option.key),
          }))}
          value={String(filter)}
          onChange={(event) => {
            setFilter(Number(event.target.value));
            pages.reset();
          }}
        />
      </FormField>
      <PagedList
        caption={t('pages.adminProfessionalsList')}
        emptyTitle={t('admin.noProfessionals')}
        columns={columns}
        rowKey={(pro) => pro.id}
        rows={data?.professionals}
        nextPageToken={data?.nextPageToken ?? ''}
        isPending={isPending}
        error={error}
        pages={pages}
      />
    </Stack>
  );
}
