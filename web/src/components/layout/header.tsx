import { Container, Flex, HStack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { pathInLanguage } from '@/lib/language';
import { useLanguage } from '@/lib/use-language';
import { LanguageSwitch } from '../language-switch';
import { AppLink } from '../ui/links';
import { Logo } from './logo';

const PUBLIC_LINKS = [
  { path: '/login', labelKey: 'header.login' },
  { path: '/login-as-professional', labelKey: 'header.professionalLogin' },
  { path: '/professional', labelKey: 'header.forProfessionals' },
] as const;

/**
 * The header of every page: the logo, the public links (left out inside the signed-in areas,
 * whose side menu takes over) and the language switch.
 */
export function Header({ showPublicLinks = true }: { showPublicLinks?: boolean }) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <Flex
      as="header"
      bg="bg"
      borderBottomWidth="1px"
      boxShadow="xs"
      position="sticky"
      top="0"
      zIndex="sticky"
    >
      <Container maxW="7xl" py="3">
        <Flex align="center" justify="space-between" wrap="wrap" gapX="6" gapY="3">
          <Logo />
          {showPublicLinks && (
            <HStack
              as="nav"
              aria-label={t('header.navLabel')}
              gap={{ base: '4', md: '6' }}
              order={{ base: 3, md: 2 }}
              width={{ base: 'full', md: 'auto' }}
              wrap="wrap"
            >
              {PUBLIC_LINKS.map(({ path, labelKey }) => (
                <AppLink
                  key={path}
                  to={pathInLanguage(path, language)}
                  color="brand.fg"
                  fontWeight="semibold"
                >
                  {t(labelKey)}
                </AppLink>
              ))}
            </HStack>
          )}
          <Flex order={{ base: 2, md: 3 }}>
            <LanguageSwitch />
          </Flex>
        </Flex>
      </Container>
    </Flex>
  );
}
