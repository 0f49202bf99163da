import { Container, Flex, HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../ui/links';

const FOOTER_LINKS = [
  { path: '/contact', labelKey: 'footer.contact' },
  { path: '/terms-and-conditions', labelKey: 'footer.terms' },
  { path: '/privacy-policy', labelKey: 'footer.privacy' },
] as const;

/** The admins' sign-in, out of the customers' and professionals' way. */
const ADMIN_SIGN_IN = '/admin/login';

export function Footer() {
  const { t } = useTranslation();
  return (
    <Flex as="footer" bg="brand.950" color="white" mt="auto">
      <Container maxW="7xl" py="8">
        <Flex direction={{ base: 'column', md: 'row' }} justify="space-between" gap="4">
          <Stack gap="2" align="flex-start">
            <Text color="brand.100">
              {t('footer.copyright', { year: new Date().getFullYear() })}
            </Text>
            {/* Out of the way of customers and professionals: small, under the copyright. */}
            <AppLink to={ADMIN_SIGN_IN} color="brand.200" fontSize="sm" textDecoration="underline">
              {t('footer.adminLogin')}
            </AppLink>
          </Stack>
          <HStack as="nav" aria-label={t('footer.navLabel')} gapX="6" gapY="2" wrap="wrap">
            {FOOTER_LINKS.map(({ path, labelKey }) => (
              <AppLink key={path} to={path} color="white" textDecoration="underline">
                {t(labelKey)}
              </AppLink>
            ))}
          </HStack>
        </Flex>
      </Container>
    </Flex>
  );
}
