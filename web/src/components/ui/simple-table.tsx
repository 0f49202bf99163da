import { Table, VisuallyHidden } from '@chakra-ui/react';
import type { ReactNode } from 'react';

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

/** A plain data table that scrolls sideways on narrow screens. */
export function SimpleTable<Row>({ caption, columns, rows, rowKey }: SimpleTableProps<Row>) {
  return (
    <Table.ScrollArea borderWidth="1px" borderRadius="md" bg="bg">
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
