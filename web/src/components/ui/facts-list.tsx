import { DataList } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** Label and value pairs, one a line (a profile's details); stacked on phones. */
export function FactsList({ facts }: { facts: [label: string, value: ReactNode][] }) {
  return (
    <DataList.Root orientation={{ base: 'vertical', sm: 'horizontal' }} divideY="1px">
      {facts.map(([label, value]) => (
        <DataList.Item key={label} pt="3" gap="1">
          <DataList.ItemLabel minW={{ sm: '44' }}>{label}</DataList.ItemLabel>
          <DataList.ItemValue whiteSpace="pre-line">{value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}
