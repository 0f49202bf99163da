import { Box, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { PageTitle } from '@/components/page-title';

interface AuthCardProps {
  title: string;
  intro?: string;
  children: ReactNode;
  /** Links under the card (log in instead, sign up as a professional, ...). */
  footer?: ReactNode;
}

/** The frame of the sign-in, sign-up, password and phone pages: one narrow card. */
export function AuthCard({ title, intro, children, footer }: AuthCardProps) {
  return (
    <Box maxW="md" mx="auto" w="full">
      <Stack
        gap="6"
        bg="bg"
        borderWidth="1px"
        borderRadius="xl"
        boxShadow="sm"
        p={{ base: '5', md: '8' }}
      >
        <Stack gap="2">
          <PageTitle title={title} />
          {intro && <Text color="fg.muted">{intro}</Text>}
        </Stack>
        {children}
      </Stack>
      {footer && (
        <Stack gap="2" mt="5" align="center" textAlign="center">
          {footer}
        </Stack>
      )}
    </Box>
  );
}
