import { Box, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { AuditChange } from '../audit-actions';

/** What an action changed, field by field, folded under a summary the keyboard opens. */
export function AuditChanges({ changes }: { changes: AuditChange[] }) {
  const { t } = useTranslation();
  if (changes.length === 0) return null;
  return (
    <Box as="details" mt="1">
      <Box as="summary" cursor="pointer" color="brand.fg" fontWeight="medium">
        {t('audit.changes', { count: changes.length })}
      </Box>
      <Table.Root size="sm" mt="2" variant="outline">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('audit.field')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('audit.before')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('audit.after')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {changes.map((change) => (
            <Table.Row key={change.field}>
              <Table.Cell fontFamily="mono">{change.field}</Table.Cell>
              {[change.before, change.after].map((value, index) => (
                <Table.Cell key={index} whiteSpace="pre-wrap" wordBreak="break-word" maxW="xs">
                  {value || (
                    <Text as="span" color="fg.muted">
                      {t('audit.empty')}
                    </Text>
                  )}
                </Table.Cell>
              ))}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
