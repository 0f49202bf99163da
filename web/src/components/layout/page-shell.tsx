import { Box, Flex, SkipNavLink } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Footer } from './footer';
import { Header } from './header';

/** The `id` of the main landmark, the skip link's target. */
export const MAIN_CONTENT_ID = 'main-content';

/** Skip link, header, the page's content and footer: the frame of every page. */
export function PageShell({
  showPublicLinks,
  children,
}: {
  showPublicLinks?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Flex direction="column" minH="100dvh">
      {/* Above the sticky header once focused (Chakra's recipe sets no z-index). */}
      <SkipNavLink id={MAIN_CONTENT_ID} zIndex="skipNav" bg="accent.solid" color="accent.contrast">
        {t('a11y.skipToContent')}
      </SkipNavLink>
      <Header showPublicLinks={showPublicLinks} />
      <Box flex="1" display="flex" flexDirection="column">
        {children}
      </Box>
      <Footer />
    </Flex>
  );
}

/** The main landmark; focusable so that the skip link moves the focus into it. */
export function MainContent({
  children,
  ...props
}: { children: ReactNode } & Parameters<typeof Box>[0]) {
  return (
    <Box as="main" id={MAIN_CONTENT_ID} tabIndex={-1} outline="none" flex="1" {...props}>
      {children}
    </Box>
  );
}
