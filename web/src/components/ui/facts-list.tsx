import { Box, Grid } from '@chakra-ui/react';
import { Fragment, type ReactNode } from 'react';

/**
 * Label and value pairs, one a line (a profile's details): label left, value right on wide
 * screens, stacked on phones. A plain `<dl>` so screen readers announce the pairs.
 */
export function FactsList({ facts }: { facts: [label: string, value: ReactNode][] }) {
  return (
    <Grid
      as="dl"
      templateColumns={{ base: '1fr', sm: 'minmax(10rem, 14rem) 1fr' }}
      columnGap="6"
      rowGap={{ base: '1', sm: '0' }}
    >
      {facts.map(([label, value]) => (
        <Fragment key={label}>
          <Box
            as="dt"
            color="fg.muted"
            fontSize="sm"
            pt={{ base: '3', sm: '2.5' }}
            pb={{ base: '0', sm: '2.5' }}
            borderTopWidth={{ base: '1px', sm: '1px' }}
          >
            {label}
          </Box>
          <Box
            as="dd"
            whiteSpace="pre-line"
            py={{ base: '0', sm: '2.5' }}
            pb="2.5"
            borderTopWidth={{ base: '0', sm: '1px' }}
          >
            {value}
          </Box>
        </Fragment>
      ))}
    </Grid>
  );
}
