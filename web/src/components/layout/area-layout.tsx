import { Box, Button, Container, Flex, Text } from '@chakra-ui/react';
import { Menu } from 'lucide-react';
import { lazy, Suspense, useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { UnreadBadge } from '../ui/unread-badge';
import { menuPaths, visibleMenu, type Area } from './area-menus';
import { MainContent, PageShell } from './page-shell';
import { SideMenu } from './side-menu';

/** The drawer's code (a dialog's) loads once the layout is on screen, not before. */
const NavigationDrawer = lazy(() =>
  import('./navigation-drawer').then((module) => ({ default: module.NavigationDrawer })),
);

interface AreaLayoutProps {
  area: Area;
  /** A professional whose profile waits for review sees no request or order links. */
  awaitingReview?: boolean;
  /** Counts shown beside menu links, by path (the unread messages); their sum on the Menu button. */
  badges?: Partial<Record<string, number>>;
}

/**
 * Layout of the signed-in areas: the side menu beside the page on wide screens, in a
 * drawer opened by a "Menu" button on narrow ones. Pressed before the drawer's code is there
 * (a moment after the page shows), the button spins until the drawer opens.
 */
export function AreaLayout({ area, awaitingReview = false, badges = {} }: AreaLayoutProps) {
  const { t } = useTranslation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerReady, setDrawerReady] = useState(false);
  const drawerReadyNow = useCallback(() => setDrawerReady(true), []);
  const drawerId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  const entries = visibleMenu(area, awaitingReview);
  const shown = new Set(menuPaths(entries));
  const badgeTotal = Object.entries(badges).reduce(
    (sum, [path, count]) => (shown.has(path) ? sum + (count ?? 0) : sum),
    0,
  );
  const menuLabel = t(`areas.${area}.menuLabel`);
  const areaTitle = t(`areas.${area}.title`);

  return (
    <PageShell showPublicLinks={false}>
      <Container maxW="7xl" flex="1" display="flex" gap="8" py={{ base: '4', md: '8' }}>
        <Box as="aside" hideBelow="md" width="64" flexShrink={0}>
          <Box position="sticky" top="24" borderWidth="1px" borderRadius="lg" p="3" bg="bg">
            <Text px="3" pb="2" fontWeight="bold" color="brand.900">
              {areaTitle}
            </Text>
            <SideMenu label={menuLabel} entries={entries} badges={badges} />
          </Box>
        </Box>
        <Flex direction="column" flex="1" minW="0" gap="4">
          <Button
            ref={menuButton}
            hideFrom="md"
            variant="outline"
            colorPalette="brand"
            alignSelf="start"
            aria-haspopup="dialog"
            aria-expanded={drawerOpen}
            aria-controls={drawerReady ? drawerId : undefined}
            loading={drawerOpen && !drawerReady}
            onClick={() => setDrawerOpen(true)}
          >
            <Menu aria-hidden />
            {t('areas.openMenu')}
            <UnreadBadge count={badgeTotal} />
          </Button>
          <Suspense fallback={null}>
            <NavigationDrawer
              id={drawerId}
              open={drawerOpen}
              onOpenChange={setDrawerOpen}
              title={areaTitle}
              label={menuLabel}
              entries={entries}
              badges={badges}
              opener={menuButton}
              onReady={drawerReadyNow}
            />
          </Suspense>
          <MainContent>
            <Outlet />
          </MainContent>
        </Flex>
      </Container>
    </PageShell>
  );
}
