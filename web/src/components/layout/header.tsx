import { Container, Flex, HStack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ACCOUNT_PATHS, activeSessions, LOGOUT_PATHS, type ActiveSession } from '@/lib/session';
import { browserSessionEnvironment } from '@/lib/session-environment';
import { LanguageSwitch } from '../language-switch';
import { AppLink } from '../ui/links';
import { Logo } from './logo';

const PUBLIC_LINKS = [
  { path: '/login', labelKey: 'header.login' },
  { path: '/login-as-professional', labelKey: 'header.professionalLogin' },
  { path: '/professional', labelKey: 'header.forProfessionals' },
] as const;

const linkStyle = { color: 'brand.fg', fontWeight: 'semibold' } as const;

/** A signed-in role's links: their name to their account, and log out. */
function SessionLinks({ role, name }: ActiveSession) {
  const { t } = useTranslation();
  const account = t(`header.account.${role}`);
  return (
    <>
      {/* The name is the visible text; the accessible name starts with it (WCAG 2.5.3). */}
      <AppLink
        to={ACCOUNT_PATHS[role]}
        aria-label={name ? `${name}, ${account}` : account}
        {...linkStyle}
      >
        {name || account}
      </AppLink>
      <AppLink to={LOGOUT_PATHS[role]} {...linkStyle}>
        {t('header.logout')}
      </AppLink>
    </>
  );
}

/**
 * The header of every page: the logo, the main links (left out inside the signed-in areas,
 * whose side menu takes over) and the language switch. Signed out, the main links lead to
 * the sign-in pages; signed in, they show who is signed in and how to log out.
 */
export function Header({ showPublicLinks = true }: { showPublicLinks?: boolean }) {
  const { t } = useTranslation();
  // Read again on every navigation: signing in or out happens on other routes.
  useLocation();
  const sessions = activeSessions(browserSessionEnvironment());
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
              {sessions.length > 0
                ? sessions.map((session) => <SessionLinks key={session.role} {...session} />)
                : PUBLIC_LINKS.map(({ path, labelKey }) => (
                    <AppLink key={path} to={path} {...linkStyle}>
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
