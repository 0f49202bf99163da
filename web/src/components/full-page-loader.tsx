import { Center, Spinner, Stack, Text } from '@chakra-ui/react';

/** Covers the whole page while something page-wide happens (a language switch, a logout). */
export function FullPageLoader({ label, lang }: { label: string; lang?: string }) {
  return (
    <Center
      position="fixed"
      inset="0"
      zIndex="overlay"
      bg="bg/90"
      backdropFilter="blur(2px)"
      role="status"
      aria-live="polite"
      data-testid="full-page-loader"
    >
      <Stack align="center" gap="4">
        <Spinner size="xl" color="brand.solid" borderWidth="4px" />
        <Text fontSize="lg" fontWeight="medium" lang={lang}>
          {label}
        </Text>
      </Stack>
    </Center>
  );
}
