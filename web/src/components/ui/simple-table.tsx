import { Box, Grid, Stack, Table, VisuallyHidden } from '@chakra-ui/react';
import { Fragment, type ReactNode } from 'react';
import { RowLayoutContext } from '@/components/ui/row-layout';
import { useMinWidth } from '@/lib/use-min-width';
import { useTableFits } from './use-table-fits';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** A header read by screen readers only (an actions column). */
  hiddenHeader?: boolean;
}

interface SimpleTableProps<Row> {
  /** What the table lists, for screen readers. */
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
}

/**
 * A plain data table; below the `md` breakpoint, and wherever the table would not fit its
 * width (many columns beside a side menu, long French headers), the same rows as stacked
 * cards: nothing is cut or needs a sideways scroll. One layout is rendered at a time.
 */
export function SimpleTable<Row>(props: SimpleTableProps<Row>) {
  const wide = useMinWidth('md');
  const { frameRef, fits } = useTableFits();
  const layout = wide && fits ? 'table' : 'cards';
  return (
    <RowLayoutContext.Provider value={layout}>
      <Box ref={frameRef}>
        {layout === 'table' ? <RowsTable {...props} /> : <RowCards {...props} />}
      </Box>
    </RowLayoutContext.Provider>
  );
}

function RowsTable<Row>({ caption, columns, rows, rowKey }: SimpleTableProps<Row>) {
  return (
    // Words wrap in their cells, so that a table needs less width before it turns to cards.
    <Table.ScrollArea borderWidth="1px" borderRadius="md" bg="bg" whiteSpace="normal">
      <Table.Root size="sm" interactive>
        <Table.Caption srOnly>{caption}</Table.Caption>
        <Table.Header>
          <Table.Row>
            {columns.map((column) => (
              // A hidden header keeps its cell (the header row's border runs on), and its
              // text stays inside the cell rather than widening the page.
              <Table.ColumnHeader key={column.header} position="relative">
                {column.hiddenHeader ? (
                  <VisuallyHidden>{column.header}</VisuallyHidden>
                ) : (
                  column.header
                )}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={rowKey(row)}>
              {columns.map((column) => (
                <Table.Cell key={column.header}>{column.cell(row)}</Table.Cell>
              ))}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

const isBlank = (value: ReactNode) => value === '' || value === null || value === undefined;

/**
 * One card a row: each column's header and value as a pair (blank values left out), then
 * the actions columns (those whose header is hidden) across the card's width.
 */
function RowCards<Row>({ caption, columns, rows, rowKey }: SimpleTableProps<Row>) {
  const facts = columns.filter((column) => !column.hiddenHeader);
  const actions = columns.filter((column) => column.hiddenHeader);
  return (
    <Stack as="ul" role="list" aria-label={caption} gap="3" listStyleType="none">
      {rows.map((row) => (
        <Stack as="li" key={rowKey(row)} gap="4" borderWidth="1px" borderRadius="md" bg="bg" p="4">
          <Grid
            as="dl"
            templateColumns="minmax(6rem, 2fr) minmax(0, 3fr)"
            columnGap="3"
            rowGap="2"
            alignItems="baseline"
          >
            {facts.map((column) => {
              const value = column.cell(row);
              if (isBlank(value)) return null;
              return (
                <Fragment key={column.header}>
                  <Box as="dt" color="fg.muted" fontSize="sm">
                    {column.header}
                  </Box>
                  <Box as="dd" minWidth="0" overflowWrap="anywhere">
                    {value}
                  </Box>
                </Fragment>
              );
            })}
          </Grid>
          {actions.map((column) => (
            <Box key={column.header}>{column.cell(row)}</Box>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
