import { Link, Table } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Licence } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * The licences of a profile, each with a link to its file, and an action per row where the
 * page offers one (removal on the licence step).
 */
export function LicenceTable({
  licences,
  action,
}: {
  licences: Licence[];
  action?: (licence: Licence) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollArea borderWidth="1px" borderRadius="md">
      <Table.Root size="sm">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('licences.label')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('licences.file')}</Table.ColumnHeader>
            {action && <Table.ColumnHeader srOnly>{t('common.actions')}</Table.ColumnHeader>}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {licences.map((licence) => (
            <Table.Row key={licence.id}>
              <Table.Cell>{licence.label}</Table.Cell>
              <Table.Cell>
                <Link href={licence.fileUrl} target="_blank" rel="noopener" color="brand.fg">
                  {t('licences.openFile', { label: licence.label })}
                </Link>
              </Table.Cell>
              {action && <Table.Cell textAlign="end">{action(licence)}</Table.Cell>}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
