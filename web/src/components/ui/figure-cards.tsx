import { Box, SimpleGrid, Skeleton, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface FigureCardsProps {
  /** What the figures are, for screen readers (the list's name). */
  label: string;
  /** A figure not known yet (undefined) shows as a placeholder of its size while busy. */
  figures: [label: string, value: ReactNode][];
  /** While the figures load. */
  busy?: boolean;
  /** How many cards a line holds on wide screens. */
  wide?: 2 | 4;
}

/** A dashboard's counters as cards: a `<dl>` of labels and big figures. */
export function FigureCards({ label, figures, busy = false, wide = 4 }: FigureCardsProps) {
  return (
    <SimpleGrid
      as="dl"
      aria-label={label}
      aria-busy={busy}
      columns={{ base: 1, sm: 2, lg: wide }}
      gap="4"
    >
      {figures.map(([name, value]) => (
        <Box key={name} borderWidth="1px" borderRadius="lg" bg="bg" p="4">
          <Text as="dt" color="fg.muted" fontSize="sm">
            {name}
          </Text>
          <Text as="dd" fontSize="3xl" fontWeight="bold" color="brand.900">
            {value ??
              (busy ? (
                <Skeleton asChild display="inline-block" h="0.8em" w="2ch">
                  <span />
                </Skeleton>
              ) : (
                '—'
              ))}
          </Text>
        </Box>
      ))}
    </SimpleGrid>
  );
}
