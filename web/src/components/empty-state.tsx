import { EmptyState as ChakraEmptyState } from '@chakra-ui/react';
import { Inbox } from 'lucide-react';
import type { ReactNode } from 'react';

/** What a list shows when it has nothing in it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <ChakraEmptyState.Root borderWidth="1px" borderRadius="lg" bg="bg.subtle">
      <ChakraEmptyState.Content>
        <ChakraEmptyState.Indicator>
          <Inbox aria-hidden />
        </ChakraEmptyState.Indicator>
        <ChakraEmptyState.Title>{title}</ChakraEmptyState.Title>
        {children && <ChakraEmptyState.Description>{children}</ChakraEmptyState.Description>}
      </ChakraEmptyState.Content>
    </ChakraEmptyState.Root>
  );
}
