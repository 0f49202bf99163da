import { Box, HStack, List, Text } from '@chakra-ui/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FINGER_TARGET } from '@/theme';
import { LocalizedNavLink } from '../localized-navigation';
import { UnreadBadge } from '../ui/unread-badge';
import { isMenuGroup, type MenuEntry, type MenuGroup, type MenuLink } from './area-menus';

interface MenuItemLinkProps {
  link: MenuLink;
  count?: number;
  onNavigate?: () => void;
}

function MenuItemLink({ link, count = 0, onNavigate }: MenuItemLinkProps) {
  const { t } = useTranslation();
  return (
    <List.Item>
      <Box
        asChild
        display="flex"
        alignItems="center"
        minH={FINGER_TARGET.minH}
        px="3"
        py="2"
        borderRadius="md"
        color="fg"
        fontWeight="medium"
        _hover={{ bg: 'brand.subtle', color: 'brand.fg' }}
        css={{ '&[aria-current=page]': { bg: 'brand.solid', color: 'brand.contrast' } }}
      >
        <LocalizedNavLink to={link.to} onClick={onNavigate}>
          <HStack as="span" flex="1" justify="space-between" gap="2">
            <span>{t(link.labelKey)}</span>
            <UnreadBadge count={count} />
          </HStack>
        </LocalizedNavLink>
      </Box>
    </List.Item>
  );
}

interface SideMenuProps {
  label: string;
  entries: MenuEntry[];
  /** Counts beside links, by path (unread messages). */
  badges?: Partial<Record<string, number>>;
  /** Called when a link is followed (the mobile drawer closes). */
  onNavigate?: () => void;
}

/** An area's navigation: links, and groups of links under a heading (the admin's coupons). */
export function SideMenu({ label, entries, badges = {}, onNavigate }: SideMenuProps) {
  return (
    <nav aria-label={label}>
      <List.Root listStyle="none" gap="1">
        {entries.map((entry) =>
          isMenuGroup(entry) ? (
            <MenuGroupItem
              key={entry.labelKey}
              group={entry}
              badges={badges}
              onNavigate={onNavigate}
            />
          ) : (
            <MenuItemLink
              key={entry.to}
              link={entry}
              count={badges[entry.to]}
              onNavigate={onNavigate}
            />
          ),
        )}
      </List.Root>
    </nav>
  );
}

interface MenuGroupItemProps {
  group: MenuGroup;
  badges: Partial<Record<string, number>>;
  onNavigate?: () => void;
}

function MenuGroupItem({ group, badges, onNavigate }: MenuGroupItemProps) {
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
          <MenuItemLink key={link.to} link={link} count={badges[link.to]} onNavigate={onNavigate} />
        ))}
      </List.Root>
    </List.Item>
  );
}
