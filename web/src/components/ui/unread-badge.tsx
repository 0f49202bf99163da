import { Badge, VisuallyHidden } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** The most a badge shows; beyond it reads '99+' (the screen reader text says the number). */
const SHOWN_MAX = 99;

/**
 * How many messages are unread, as a small round badge beside what they belong to (a
 * conversation, the Messages link): the figure on screen, 'N unread messages' for screen
 * readers. Nothing when none are.
 */
export function UnreadBadge({ count }: { count: number }) {
  const { t } = useTranslation();
  if (count <= 0) return null;
  return (
    <>
      {/* A word of its own in the name of what it sits in: 'Messages 3 unread messages'. */}{' '}
      <Badge
        aria-hidden
        colorPalette="accent"
        variant="solid"
        borderRadius="full"
        minW="6"
        justifyContent="center"
        data-testid="unread-badge"
      >
        {count > SHOWN_MAX ? `${SHOWN_MAX}+` : count}
      </Badge>
      <VisuallyHidden>{t('conversations.unreadCount', { count })}</VisuallyHidden>
    </>
  );
}
