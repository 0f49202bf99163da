import { Box, Skeleton, Stack, Text } from '@chakra-ui/react';
import { LinkButton } from '@/components/ui/links';
import { Section } from './section';

interface MembershipOfferProps {
  heading: string;
  description: string;
  /** "$29.99 per month" / "29,99 $ par mois"; `undefined` while it loads. */
  price: string | undefined;
  note: string;
  buy: { label: string; to: string };
}

/** The premium membership offer of the professional page. */
export function MembershipOffer({ heading, description, price, note, buy }: MembershipOfferProps) {
  return (
    <Section heading={heading} bg="brand.subtle">
      <Box
        maxW="xl"
        mx="auto"
        bg="bg"
        borderRadius="2xl"
        borderWidth="2px"
        borderColor="accent.solid"
        boxShadow="lg"
        p={{ base: '6', md: '10' }}
        textAlign="center"
      >
        <Stack gap="5" align="center">
          <Text fontSize="lg">{description}</Text>
          {price === undefined ? (
            <Skeleton height="10" width="60%" />
          ) : (
            <Text
              fontSize="4xl"
              fontWeight="extrabold"
              color="brand.900"
              data-testid="membership-price"
            >
              {price}
            </Text>
          )}
          <Text color="fg.muted">{note}</Text>
          <LinkButton to={buy.to} size="xl" colorPalette="accent" fontWeight="bold">
            {buy.label}
          </LinkButton>
        </Stack>
      </Box>
    </Section>
  );
}
