import { Box, Center, Flex, Heading, SimpleGrid, Text } from '@chakra-ui/react';
import type { ServiceCard } from '../service-catalogue';
import { Section } from './section';
import { ServiceIcon } from './service-icon';

interface ServicesSectionProps {
  heading: string;
  description: string;
  services: ServiceCard[];
}

/** The service categories, as a grid of cards. */
export function ServicesSection({ heading, description, services }: ServicesSectionProps) {
  return (
    <Section heading={heading} description={description}>
      <SimpleGrid as="ul" listStyleType="none" columns={{ base: 1, sm: 2, lg: 4 }} gap="5">
        {services.map((service) => (
          <Flex
            as="li"
            key={service.id}
            direction={{ base: 'row', sm: 'column' }}
            align="start"
            gap="4"
            borderWidth="1px"
            borderRadius="xl"
            p={{ base: '4', md: '6' }}
            bg="bg"
            boxShadow="xs"
            transition="box-shadow 0.2s"
            _hover={{ boxShadow: 'md' }}
          >
            <Center
              boxSize="12"
              flexShrink={0}
              borderRadius="lg"
              bg="brand.subtle"
              color="brand.fg"
            >
              <ServiceIcon service={service} />
            </Center>
            <Box>
              <Heading as="h3" size="md" color="brand.900">
                {service.name}
              </Heading>
              <Text mt="1" color="fg.muted">
                {service.description}
              </Text>
            </Box>
          </Flex>
        ))}
      </SimpleGrid>
    </Section>
  );
}
