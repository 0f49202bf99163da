import { Badge, HStack, Link } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SimpleTable, type Column } from '@/components/ui/simple-table';
import type { Licence } from '@/gen/repairs/accounts/v1/accounts_pb';
import { FINGER_TARGET } from '@/theme';

/**
 * The licences of a profile, each with a link to its file (and a badge while it awaits
 * review), and an action per row where the page offers one (removal on the licence step);
 * cards on a phone, as every list.
 */
export function LicenceTable({
  caption,
  licences,
  action,
}: {
  /** What the list is, for screen readers. */
  caption: string;
  licences: Licence[];
  action?: (licence: Licence) => ReactNode;
}) {
  const { t } = useTranslation();
  const columns: Column<Licence>[] = [
    {
      header: t('licences.label'),
      cell: (licence) => (
        <HStack gap="2" wrap="wrap">
          <span>{licence.label}</span>
          {licence.awaitingReview && (
            <Badge colorPalette="orange">{t('licences.awaitingReview')}</Badge>
          )}
        </HStack>
      ),
    },
    {
      header: t('licences.file'),
      cell: (licence) => (
        <Link
          href={licence.fileUrl}
          target="_blank"
          rel="noopener"
          color="brand.fg"
          {...FINGER_TARGET}
        >
          {t('licences.openFile', { label: licence.label })}
        </Link>
      ),
    },
  ];
  if (action) columns.push({ header: t('common.actions'), hiddenHeader: true, cell: action });
  return (
    <SimpleTable
      caption={caption}
      columns={columns}
      rows={licences}
      rowKey={(licence) => licence.id}
    />
  );
}
