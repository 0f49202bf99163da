import { Box, Grid, Stack, Table, Text } from '@chakra-ui/react';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRowLayout } from '@/components/ui/row-layout';
import type { AuditChange } from '../audit-actions';

/**
 * What an action changed, field by field, folded under a summary the keyboard opens: a
 * table in the audit log's table, a list of fields, each with its values before and after,
 * on the log's cards (a phone), where three columns would leave each a few letters wide.
 * Long names and values (ids, JSON) break anywhere, field names first after their
 * underscores: opened, the changes take no more width than the log gives them.
 */
export function AuditChanges({ changes }: { changes: AuditChange[] }) {
  const { t } = useTranslation();
  const cards = useRowLayout() === 'cards';
  if (changes.length === 0) return null;
  const value = (text: string) =>
    text || (
      <Text as="span" color="fg.muted">
        {t('audit.empty')}
      </Text>
    );
  return (
    <Box as="details" mt="1">
      <Box
        as="summary"
        cursor="pointer"
        color="brand.fg"
        fontWeight="medium"
        // A finger-sized row on a phone: 24 px of text and 10 px above and below.
        py={{ base: '2.5', md: '0' }}
      >
        {t('audit.changes', { count: changes.length })}
      </Box>
      {cards ? (
        <Stack as="ul" role="list" listStyleType="none" gap="2" mt="2">
          {changes.map((change) => (
            <Box as="li" key={change.field} borderTopWidth="1px" pt="2">
              <FieldName field={change.field} />
              <Grid as="dl" templateColumns="auto minmax(0, 1fr)" columnGap="3" fontSize="sm">
                {(
                  [
                    [t('audit.before'), change.before],
                    [t('audit.after'), change.after],
                  ] as const
                ).map(([term, text]) => (
                  <Fragment key={term}>
                    <Box as="dt" color="fg.muted">
                      {term}
                    </Box>
                    <Box as="dd" whiteSpace="pre-wrap" overflowWrap="anywhere">
                      {value(text)}
                    </Box>
                  </Fragment>
                ))}
              </Grid>
            </Box>
          ))}
        </Stack>
      ) : (
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
                <Table.Cell>
                  <FieldName field={change.field} />
                </Table.Cell>
                {[change.before, change.after].map((text, index) => (
                  <Table.Cell key={index} whiteSpace="pre-wrap" overflowWrap="anywhere" maxW="xs">
                    {value(text)}
                  </Table.Cell>
                ))}
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Box>
  );
}

/** A stored field's name (`max_redemptions`), which may break after its underscores. */
function FieldName({ field }: { field: string }): ReactNode {
  const parts = field.split('_');
  return (
    <Text as="span" fontFamily="mono" fontSize="sm" overflowWrap="anywhere">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 && (
            <>
              _<wbr />
            </>
          )}
        </Fragment>
      ))}
    </Text>
  );
}
