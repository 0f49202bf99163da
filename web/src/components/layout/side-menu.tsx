import { Box, List, Text } from '@chakra-ui/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { isMenuGroup, type MenuEntry, type MenuGroup, type MenuLink } from './area-menus';

function MenuItemLink({ link, onNavigate }: { link: MenuLink; onNavigate?: () => void }) {
  const { t } = useTranslation();
  return (
    <List.Item>
      <Box
        asChild
        display="block"
        px="3"
        py="2"
        borderRadius="md"
        color="fg"
        fontWeight="medium"
        _hover={{ bg: 'brand.subtle', color: 'brand.fg' }}
        css={{ '&[aria-current=page]': { bg: 'brand.solid', color: 'brand.contrast' } }}
      >
        <NavLink to={link.to} onClick={onNavigate}>
          {t(link.labelKey)}
        </NavLink>
      </Box>
    </List.Item>
  );
}

interface SideMenuProps {
  label: string;
  entries: MenuEntry[];
  /** Called when a link is followed (the mobile drawer closes). */
  onNavigate?: () => void;
}

/** An area's navigation: links, and groups of links under a heading (the admin's coupons). */
export function SideMenu({ label, entries, onNavigate }: SideMenuProps) {
  return (
    <nav aria-label={label}>
      <List.Root listStyle="none" gap="1">
        {entries.map((entry) =>
          isMenuGroup(entry) ? (
            <MenuGroupItem key={entry.labelKey} group={entry} onNavigate={onNavigate} />
          ) : (
            <MenuItemLink key={entry.to} link={entry} onNavigate={onNavigate} />
          ),
        )}
      </List.Root>
    </nav>
  );
}

function MenuGroupItem({ group, onNavigate }: { group: MenuGroup; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <List.Item>
      <Text
        id={headingId}
        px="3"
        pt="3"
        pb="1"
        fontSize="sm"
        fontWeight="bold"
        color="fg.muted"
        textTransform="uppercase"
      >
        {t(group.labelKey)}
      </Text>
      <List.Root listStyle="none" gap="1" ps="3" aria-labelledby={headingId}>
        {group.links.map((link) => (
          <MenuItemLink key={link.to} link={link} onNavigate={onNavigate} />
        ))}
      </List.Root>
    </List.Item>
  );
}
