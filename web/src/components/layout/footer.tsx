import { Container, Flex, HStack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../ui/links';

const FOOTER_LINKS = [
  { path: '/contact', labelKey: 'footer.contact' },
  { path: '/terms-and-conditions', labelKey: 'footer.terms' },
  { path: '/privacy-policy', labelKey: 'footer.privacy' },
] as const;

export function Footer() {
  const { t } = useTranslation();
  return (
    <Flex as="footer" bg="brand.950" color="white" mt="auto">
      <Container maxW="7xl" py="8">
        <Flex direction={{ base: 'column', md: 'row' }} justify="space-between" gap="4">
          <Text color="brand.100">{t('footer.copyright', { year: new Date().getFullYear() })}</Text>
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
