import { Box, Center, Heading, SimpleGrid, Text } from '@chakra-ui/react';
import { Section } from './section';

interface GuideSectionProps {
  heading: string;
  description: string;
  steps: { heading: string; description: string }[];
}

/** "How to get started": numbered steps. */
export function GuideSection({ heading, description, steps }: GuideSectionProps) {
  return (
    <Section heading={heading} description={description}>
      <SimpleGrid as="ol" listStyleType="none" columns={{ base: 1, md: steps.length }} gap="8">
        {steps.map((step, index) => (
          <Box as="li" key={`${index}:${step.heading}`} textAlign="center" px="4">
            <Center
              boxSize="14"
              mx="auto"
              mb="4"
              borderRadius="full"
              bg="accent.solid"
              color="accent.contrast"
              fontSize="2xl"
              fontWeight="bold"
              aria-hidden
            >
              {index + 1}
            </Center>
            <Heading as="h3" size="lg" color="brand.900">
              {step.heading}
            </Heading>
            <Text mt="2" color="fg.muted">
              {step.description}
            </Text>
          </Box>
        ))}
      </SimpleGrid>
    </Section>
  );
}
