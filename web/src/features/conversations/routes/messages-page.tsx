import { Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { TokenPager } from '@/components/ui/pager';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useConversations } from '../api/list-conversations';
import { ConversationRows } from '../components/conversation-rows';
import type { Reader } from '../conversation-ref';

/** Conversations on a page. */
const PAGE_SIZE = 20;

/**
 * /user-messages and /professional-messages: every conversation of the caller, newest
 * message first, with the unread count of each and in all, page by page; each opens on its
 * request page.
 */
export function MessagesPage({ reader }: { reader: Exclude<Reader, 'admin'> }) {
  const { t } = useTranslation();
  const pages = usePageTokens();
  const { data, isPending, error } = useConversations({
    pageToken: pages.token,
    pageSize: PAGE_SIZE,
  });
  const conversations = data?.conversations ?? [];
  return (
    <Stack gap="6" maxW="3xl">
      <PageTitle
        title={t(reader === 'customer' ? 'pages.userMessages' : 'pages.professionalMessages')}
      />
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {data && (
        <Text role="status">{t('conversations.unreadTotal', { count: data.unreadTotal })}</Text>
      )}
      {data && conversations.length === 0 && (
        <EmptyState title={t('conversations.none')}>
          {t(`conversations.noneHelp.${reader}`)}
        </EmptyState>
      )}
      {conversations.length > 0 && (
        <ConversationRows
          conversations={conversations}
          reader={reader}
          label={t('conversations.allCaption')}
        />
      )}
      <TokenPager pages={pages} nextToken={data?.nextPageToken ?? ''} />
    </Stack>
  );
}
