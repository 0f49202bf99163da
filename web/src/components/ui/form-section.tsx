import { Heading, Stack, Text } from '@chakra-ui/react';
import { useId, type ReactNode } from 'react';

/** A titled part of a long form (a landmark region named by its heading). */
export function FormSection({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Stack
      as="section"
      aria-labelledby={headingId}
      gap="4"
      borderWidth="1px"
      borderRadius="lg"
      p={{ base: '4', md: '6' }}
      bg="bg"
    >
      <Stack gap="1">
        <Heading as="h2" id={headingId} size="lg" color="brand.900">
          {title}
        </Heading>
        {description && <Text color="fg.muted">{description}</Text>}
      </Stack>
      {children}
    </Stack>
  );
}
