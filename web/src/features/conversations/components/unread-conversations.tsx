import { Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { ListLoader } from '@/components/list-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { AppLink } from '@/components/ui/links';
import { UnreadBadge } from '@/components/ui/unread-badge';
import { useConversations } from '../api/list-conversations';
import type { Reader } from '../conversation-ref';
import { CONVERSATION_PATHS } from '../paths';
import { ConversationRows } from './conversation-rows';

/** Conversations a dashboard shows. */
const DASHBOARD_COUNT = 5;

/**
 * A dashboard's messages: the unread total, the newest conversations with theirs, and a
 * link to all of them.
 */
export function UnreadConversations({ reader }: { reader: Exclude<Reader, 'admin'> }) {
  const { t } = useTranslation();
  const { data, isPending, error } = useConversations({ pageSize: DASHBOARD_COUNT });
  const total = data?.unreadTotal ?? 0;
  const all =
    reader === 'customer'
      ? CONVERSATION_PATHS.customerMessages
      : CONVERSATION_PATHS.professionalMessages;
  return (
    <Stack as="section" gap="3" aria-labelledby="dashboard-messages-heading" aria-busy={isPending}>
      <HStack gap="3" wrap="wrap">
        <Heading as="h2" id="dashboard-messages-heading" size="lg" color="brand.900">
          {t('conversations.title')}
        </Heading>
        <UnreadBadge count={total} />
      </HStack>
      {error && <RpcErrorAlert error={error} />}
      {isPending && <ListLoader />}
      {data && (
        <Text role="status" data-testid="unread-total">
          {t('conversations.unreadTotal', { count: total })}
        </Text>
      )}
      {data && data.conversations.length === 0 && (
        <EmptyState title={t('conversations.none')}>
          {t(`conversations.noneHelp.${reader}`)}
        </EmptyState>
      )}
      {data && data.conversations.length > 0 && (
        <>
          <ConversationRows
            conversations={data.conversations}
            reader={reader}
            label={t('conversations.latest')}
          />
          <AppLink to={all} color="brand.fg" alignSelf="start">
            {t('conversations.all')}
          </AppLink>
        </>
      )}
    </Stack>
  );
}
