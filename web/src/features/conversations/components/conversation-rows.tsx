import { HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/ui/links';
import { UnreadBadge } from '@/components/ui/unread-badge';
import { useServiceNames } from '@/features/content';
import { ConversationState, type Conversation } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { conversationPath, type Party } from '../paths';
import { lastMessageText } from './last-message';

/**
 * Conversations as a list of cards, newest first: the request's service (and for the
 * customer, the professional), the newest message, when, and the unread count; each opens
 * the conversation on its request page.
 */
export function ConversationRows({
  conversations,
  reader,
  label,
}: {
  conversations: Conversation[];
  reader: Party;
  label: string;
}) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const serviceName = useServiceNames();
  return (
    <Stack as="ul" gap="2" listStyleType="none" aria-label={label}>
      {conversations.map((conversation) => {
        const service = serviceName(conversation.serviceId, conversation.serviceName);
        const title =
          reader === 'customer'
            ? t('conversations.rowTitle', { service, name: conversation.professionalName })
            : service;
        const last = conversation.lastMessage;
        return (
          <Stack
            as="li"
            key={conversation.id}
            gap="1"
            borderWidth="1px"
            borderRadius="md"
            bg={conversation.unreadCount > 0 ? 'brand.subtle' : 'bg'}
            p="3"
          >
            <HStack justify="space-between" gap="3" align="start">
              <AppLink
                to={conversationPath(conversation, reader)}
                color="brand.fg"
                fontWeight="semibold"
              >
                {title}
              </AppLink>
              <HStack gap="2" flexShrink={0}>
                <UnreadBadge count={conversation.unreadCount} />
              </HStack>
            </HStack>
            {last && (
              <Text fontSize="sm" lineClamp={2} color="fg.muted">
                {lastMessageText(last, t)}
              </Text>
            )}
            <Text fontSize="xs" color="fg.muted">
              {formatTime(conversation.updateTime)}
              {conversation.state === ConversationState.READ_ONLY &&
                ` · ${t('conversations.closedShort')}`}
            </Text>
          </Stack>
        );
      })}
    </Stack>
  );
}
