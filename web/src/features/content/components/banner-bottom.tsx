import { Container, Flex, Heading } from '@chakra-ui/react';
import { LinkButton } from '@/components/ui/links';

interface BannerBottomProps {
  /** banner_bottom_heading */
  heading: string;
  /** banner_bottom_link, and where it goes. */
  link: { label: string; to: string };
}

/** The professional page's line under its banner: "Already one of our professionals?". */
export function BannerBottom({ heading, link }: BannerBottomProps) {
  return (
    <Container maxW="7xl" pb={{ base: '10', md: '14' }}>
      <Flex
        align="center"
        justify="space-between"
        wrap="wrap"
        gap="4"
        borderTopWidth="1px"
        borderColor="whiteAlpha.300"
        pt="6"
      >
        <Heading as="h2" size="lg">
          {heading}
        </Heading>
        <LinkButton
          to={link.to}
          variant="outline"
          color="white"
          borderColor="white"
          _hover={{ bg: 'whiteAlpha.200' }}
        >
          {link.label}
        </LinkButton>
      </Flex>
    </Container>
  );
}
