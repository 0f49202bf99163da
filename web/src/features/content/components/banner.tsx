import { Box, Center, Container, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { ShieldCheck, Wrench } from 'lucide-react';
import type { ReactNode } from 'react';
import { LinkButton } from '@/components/ui/links';
import { titleFocusProps, useTitleFocus } from '@/lib/route-focus';

interface BannerProps {
  /** banner_h1: the page's h1. */
  title: string;
  /** banner_h2: a short line above the title. */
  lead?: string;
  /** banner_h3: the sentence under the title. */
  body: string;
  cta: { label: string; to: string };
  children?: ReactNode;
  /** Shown in an editor's preview: the title is not the page's h1 and takes no focus. */
  preview?: boolean;
}

/** The top of a landing page: deep blue, the page's h1 and its call to action. */
export function Banner({ title, lead, body, cta, children, preview = false }: BannerProps) {
  const titleRef = useTitleFocus<HTMLHeadingElement>();
  return (
    <Box
      bgGradient="to-br"
      gradientFrom="brand.950"
      gradientVia="brand.900"
      gradientTo="brand.700"
      color="white"
    >
      <Container maxW="7xl" py={{ base: '12', md: '24' }}>
        <Flex align="center" gap="12">
          <Stack gap="5" maxW="3xl" flex="1">
            {lead && (
              <Text
                fontWeight="semibold"
                color="accent.200"
                textTransform="uppercase"
                letterSpacing="wide"
                fontSize={{ base: 'sm', md: 'md' }}
              >
                {lead}
              </Text>
            )}
            <Heading
              {...(preview ? { as: 'p' } : { ref: titleRef, as: 'h1', ...titleFocusProps })}
              size={{ base: '4xl', md: '6xl' }}
              lineHeight="1.1"
              fontWeight="extrabold"
            >
              {title}
            </Heading>
            <Text fontSize={{ base: 'lg', md: 'xl' }} color="brand.100">
              {body}
            </Text>
            <Box pt="2">
              <LinkButton to={cta.to} size="xl" colorPalette="accent" fontWeight="bold">
                {cta.label}
              </LinkButton>
            </Box>
          </Stack>
          <Center
            hideBelow="lg"
            position="relative"
            boxSize="72"
            borderRadius="full"
            bg="whiteAlpha.100"
            borderWidth="1px"
            borderColor="whiteAlpha.300"
            aria-hidden
          >
            <Wrench size={120} strokeWidth={1.5} />
            <Center
              position="absolute"
              bottom="6"
              right="6"
              boxSize="20"
              borderRadius="full"
              bg="accent.solid"
            >
              <ShieldCheck size={44} />
            </Center>
          </Center>
        </Flex>
      </Container>
      {children}
    </Box>
  );
}
