import { CloseButton, Drawer, Portal } from '@chakra-ui/react';
import { useEffect, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { MenuEntry } from './area-menus';
import { SideMenu } from './side-menu';

interface NavigationDrawerProps {
  /** The id of the drawer's content, which its button controls. */
  id: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The area's title and its menu's name. */
  title: string;
  label: string;
  entries: MenuEntry[];
  badges: Partial<Record<string, number>>;
  /** The button that opens it, which has the focus back as it closes. */
  opener: RefObject<HTMLElement | null>;
  /** Called once the drawer is there, its code loaded (AreaLayout loads it). */
  onReady: () => void;
}

/** The side menu of a signed-in area in a drawer, on narrow screens. */
export function NavigationDrawer({
  id,
  open,
  onOpenChange,
  title,
  label,
  entries,
  badges,
  opener,
  onReady,
}: NavigationDrawerProps) {
  const { t } = useTranslation();
  useEffect(onReady, [onReady]);
  return (
    <Drawer.Root
      ids={{ content: id }}
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      placement="start"
      finalFocusEl={() => opener.current}
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{title}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <SideMenu
                label={label}
                entries={entries}
                badges={badges}
                onNavigate={() => onOpenChange(false)}
              />
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('areas.closeMenu')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
