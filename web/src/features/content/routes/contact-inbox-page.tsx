import { Badge, Box, Button, HStack, SegmentGroup, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { EmptyState } from '@/components/empty-state';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { Pager } from '@/components/ui/pager';
import { toaster } from '@/components/ui/toast';
import type { ContactMessage } from '@/gen/repairs/content/v1/content_pb';
import { readRpcError } from '@/lib/rpc-error';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useContactMessagesPage } from '../api/list-contact-messages';
import { useMarkContactMessageRead } from '../api/mark-contact-message-read';

/**
 * /admin/contact-messages: the messages of the contact form, newest first; the unread ones
 * first (the default view), each with its sender, a reply link and a read/unread mark.
 */
export function ContactInboxPage() {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const problemMessage = useProblemMessage();
  const [unreadOnly, setUnreadOnly] = useState(true);
  const pages = usePageTokens();
  const { data, isPending, error } = useContactMessagesPage(unreadOnly, pages.token);
  const mark = useMarkContactMessageRead();

  const toggle = (message: ContactMessage) =>
    mark.mutate(
      { id: message.id, read: !message.read },
      {
        onSuccess: () =>
          toaster.create({
            type: 'success',
            title: t(message.read ? 'inbox.markedUnread' : 'inbox.markedRead', {
              name: message.name,
            }),
          }),
        onError: (failure) =>
          toaster.create({ type: 'error', title: problemMessage(readRpcError(failure)) }),
      },
    );

  const messages = data?.messages ?? [];
  return (
    <Stack gap="6" maxW="4xl">
      <HStack gap="3" wrap="wrap">
        <PageTitle title={t('pages.adminContactMessages')} />
        {data && (
          <Badge colorPalette={data.unreadCount > 0 ? 'accent' : 'gray'} size="lg">
            {t('inbox.unreadCount', { count: data.unreadCount })}
          </Badge>
        )}
      </HStack>
      <SegmentGroup.Root
        value={unreadOnly ? 'unread' : 'all'}
        onValueChange={({ value }) => {
          setUnreadOnly(value === 'unread');
          pages.reset();
        }}
        aria-label={t('inbox.show')}
        alignSelf="start"
      >
        <SegmentGroup.Indicator />
        <SegmentGroup.Items
          items={[
            { value: 'unread', label: t('inbox.unread') },
            { value: 'all', label: t('inbox.all') },
          ]}
        />
      </SegmentGroup.Root>
      {isPending && <RouteLoader />}
      {error ? <RpcErrorAlert error={error} /> : null}
      {data && messages.length === 0 && (
        <EmptyState title={t(unreadOnly ? 'inbox.noneUnread' : 'inbox.none')} />
      )}
      {messages.length > 0 && (
        <Stack as="ul" listStyleType="none" gap="4" aria-label={t('pages.adminContactMessages')}>
          {messages.map((message) => (
            <Box
              as="li"
              key={message.id}
              borderWidth="1px"
              borderLeftWidth="4px"
              borderLeftColor={message.read ? 'border' : 'accent.solid'}
              borderRadius="md"
              p="4"
              bg="bg"
            >
              <Stack gap="2">
                <HStack justify="space-between" wrap="wrap" gap="2">
                  <Stack gap="0">
                    <Text fontWeight="semibold">
                      {message.name}
                      {!message.read && (
                        <Badge ms="2" colorPalette="accent">
                          {t('inbox.new')}
                        </Badge>
                      )}
                    </Text>
                    <Text fontSize="sm" color="fg.muted">
                      <a href={`mailto:${message.email}`}>{message.email}</a> ·{' '}
                      {formatTime(message.createTime)}
                    </Text>
                  </Stack>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={mark.isPending}
                    onClick={() => toggle(message)}
                    aria-label={t(message.read ? 'inbox.markUnreadLabel' : 'inbox.markReadLabel', {
                      name: message.name,
                    })}
                  >
                    {t(message.read ? 'inbox.markUnread' : 'inbox.markRead')}
                  </Button>
                </HStack>
                <Text whiteSpace="pre-wrap">{message.message}</Text>
              </Stack>
            </Box>
          ))}
        </Stack>
      )}
      <Pager
        page={pages.page}
        nextToken={data?.nextPageToken ?? ''}
        onNext={pages.next}
        onPrevious={pages.previous}
      />
    </Stack>
  );
}
