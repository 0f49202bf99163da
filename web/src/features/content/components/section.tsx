import { Box, Container, Heading, Text, type BoxProps } from '@chakra-ui/react';
import { useId, type ReactNode } from 'react';

interface SectionProps extends Omit<BoxProps, 'title'> {
  heading: string;
  description?: string;
  children: ReactNode;
}

/** A landing-page section: a labelled region with its h2, an optional lead and content. */
export function Section({ heading, description, children, ...boxProps }: SectionProps) {
  const headingId = useId();
  return (
    <Box as="section" aria-labelledby={headingId} py={{ base: '12', md: '20' }} {...boxProps}>
      <Container maxW="7xl">
        <Box textAlign="center" maxW="3xl" mx="auto" mb={{ base: '8', md: '12' }}>
          <Heading as="h2" id={headingId} size={{ base: '2xl', md: '3xl' }} color="brand.900">
            {heading}
          </Heading>
          {description && (
            <Text mt="3" fontSize="lg" color="fg.muted">
              {description}
            </Text>
          )}
        </Box>
        {children}
      </Container>
    </Box>
  );
}
