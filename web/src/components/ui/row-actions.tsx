import { HStack, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { To } from 'react-router';
import { AppLink, LinkButton } from '@/components/ui/links';
import { useRowLayout } from '@/components/ui/row-layout';

/**
 * A row's actions: side by side in a table cell, one under the other across a card.
 */
export function RowActions({ children }: { children: ReactNode }) {
  return useRowLayout() === 'cards' ? (
    <Stack gap="2" align="stretch">
      {children}
    </Stack>
  ) : (
    <HStack gap="4" wrap="wrap">
      {children}
    </HStack>
  );
}

interface RowActionLinkProps {
  to: To;
  children: ReactNode;
  /** The accessible name, when the text alone does not say which row it acts on. */
  label?: string;
  /** The main action of the row: a solid button on a card. */
  primary?: boolean;
}

/**
 * A row's action that goes to another page: a link in a table, a full-width button on a
 * card (a finger-sized target on a phone).
 */
export function RowActionLink({ to, children, label, primary }: RowActionLinkProps) {
  if (useRowLayout() === 'cards') {
    return (
      <LinkButton
        to={to}
        width="full"
        colorPalette="brand"
        variant={primary ? 'solid' : 'outline'}
        aria-label={label}
      >
        {children}
      </LinkButton>
    );
  }
  return (
    <AppLink to={to} color="brand.fg" aria-label={label}>
      {children}
    </AppLink>
  );
}
