import { Box, Button, Heading, HStack, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { Flag } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { MoreActionsMenu, type MoreAction } from '@/components/ui/more-actions-menu';
import {
  ConversationState,
  MessageAuthor,
  type ConversationMessage,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { OTHER_AUTHOR, useMarkRead } from '../api/mark-conversation-read';
import { useLiveConversation } from '../api/watch-conversation';
import type { ConversationRef, Reader } from '../conversation-ref';
import { Composer } from './composer';
import { MessageItem } from './message-item';
import { ReportDialog } from './report-dialog';

const OWN_AUTHOR: Record<Exclude<Reader, 'admin'>, MessageAuthor> = {
  customer: MessageAuthor.CUSTOMER,
  professional: MessageAuthor.PROFESSIONAL,
};

interface ConversationThreadProps {
  conversation: ConversationRef;
  reader: Reader;
  /** The heading of the thread ('Messages with Quinn Quoter'). */
  title: string;
  /** What the reader calls each side: the professional's name, 'Customer', 'You'. */
  names: { customer: string; professional: string };
  /** Before the hire: the composer says contact details are masked. */
  beforeHire?: boolean;
  /** Actions of the thread's More actions menu after Report (the customer's Block). */
  actions?: MoreAction[];
  /** Replaces the composer (the customer blocked this professional). */
  closedNote?: ReactNode;
}

/**
 * One conversation: its messages (oldest at the top, older pages on demand), live as they
 * come (WatchConversation), marked read while shown, and the composer, or why it cannot be
 * written to any more. Its parties may report it; admins read it without writing.
 */
export function ConversationThread({
  conversation,
  reader,
  title,
  names,
  beforeHire = false,
  actions = [],
  closedNote,
}: ConversationThreadProps) {
  const { t } = useTranslation();
  const { thread, error, watchState, loadOlder, loadingOlder, sent } = useLiveConversation(
    conversation,
    { watch: reader !== 'admin' },
  );
  useMarkRead(conversation, thread, reader);
  const [reporting, setReporting] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const messages = thread?.messages ?? [];
  const newest = messages.at(-1)?.sequence;
  const readOnly = thread?.conversation?.state === ConversationState.READ_ONLY;
  const party = reader === 'admin' ? null : reader;
  const own = party ? OWN_AUTHOR[party] : MessageAuthor.ADMIN;
  const ownNewest = party ? messages.findLast((message) => message.author === own) : undefined;
  const arrived =
    party && thread
      ? messages.filter(
          (message) =>
            message.author === OTHER_AUTHOR[party] && message.sequence > thread.loadedUpTo,
        )
      : [];
  const lastArrived = arrived.at(-1);

  // The newest message in view: at the start, and as messages come (older pages leave it).
  useEffect(() => {
    const element = list.current;
    if (element && newest !== undefined) element.scrollTop = element.scrollHeight;
  }, [newest]);

  // The reader is told what was masked for them; the author, who reads their words whole,
  // what the other party reads of them before the hire (both decided by the server).
  const maskedNote = (message: ConversationMessage) => {
    if (!party || message.deleted) return undefined;
    if (message.contactsMasked) return t(`conversations.masked.${party}`);
    if (message.maskedForOtherParty) return t(`conversations.maskedForOther.${party}`);
    return undefined;
  };

  const authorOf = (message: ConversationMessage) => {
    if (message.author === own) return t('conversations.you');
    if (message.author === MessageAuthor.ADMIN) return t('conversations.support');
    return message.author === MessageAuthor.CUSTOMER ? names.customer : names.professional;
  };

  const headingId = `thread-${conversation.repairRequestId}-${conversation.professionalId || 'own'}`;
  return (
    <Stack
      as="section"
      gap="3"
      aria-labelledby={headingId}
      borderWidth="1px"
      borderRadius="lg"
      bg="bg"
      p={{ base: '3', md: '4' }}
      data-live={watchState}
    >
      <HStack justify="space-between" align="start" gap="3" wrap="wrap">
        <Heading as="h3" id={headingId} size="md" color="brand.900">
          {title}
        </Heading>
        {party && (
          <MoreActionsMenu
            subject={title}
            actions={[
              {
                value: 'report',
                label: t('conversations.report.open'),
                icon: <Flag aria-hidden />,
                onSelect: () => setReporting(true),
              },
              ...actions,
            ]}
          />
        )}
      </HStack>
      {error !== null && <RpcErrorAlert error={error} />}
      {thread === null && error === null && <RouteLoader />}
      {thread && (
        <Box
          ref={list}
          tabIndex={0}
          role="region"
          aria-label={t('conversations.messagesOf', { title })}
          maxH={{ base: '60vh', md: '28rem' }}
          overflowY="auto"
          borderRadius="md"
          bg="bg.subtle"
          p="3"
          _focusVisible={{ outline: '2px solid', outlineColor: 'brand.solid' }}
        >
          {thread.olderToken !== '' && (
            <HStack justify="center" mb="3">
              <Button
                size="sm"
                variant="outline"
                onClick={() => void loadOlder()}
                loading={loadingOlder}
              >
                {t('conversations.older')}
              </Button>
            </HStack>
          )}
          {messages.length === 0 ? (
            <Text color="fg.muted" textAlign="center" py="4">
              {party ? t('conversations.empty') : t('conversations.emptyAdmin')}
            </Text>
          ) : (
            <Stack as="ol" gap="3" listStyleType="none">
              {messages.map((message) => (
                <MessageItem
                  key={message.sequence.toString()}
                  message={message}
                  mine={message.author === own}
                  author={authorOf(message)}
                  maskedNote={maskedNote(message)}
                  seen={
                    message === ownNewest &&
                    thread.otherPartyRead >= message.sequence &&
                    message.sequence > 0n
                  }
                />
              ))}
            </Stack>
          )}
        </Box>
      )}
      <VisuallyHidden aria-live="polite">
        {lastArrived
          ? t('conversations.arrived', {
              name: authorOf(lastArrived),
              text: lastArrived.textTranslation || lastArrived.text,
            })
          : ''}
      </VisuallyHidden>
      {party && thread && (readOnly || closedNote) && (
        <FormAlert status="info" title={t('conversations.closedTitle')}>
          {closedNote ?? t('conversations.readOnly')}
        </FormAlert>
      )}
      {party && thread && !readOnly && !closedNote && (
        <Composer
          conversation={conversation}
          onSent={(response) => sent(response.message, response.conversation)}
          note={beforeHire ? t(`conversations.maskedBeforeHire.${party}`) : undefined}
        />
      )}
      {!party && thread && !readOnly && thread.conversation !== undefined && (
        // Admins write only while a problem reported on the job is open (the server says
        // OPEN then); as Support, with no photos.
        <Composer
          conversation={conversation}
          onSent={(response) => sent(response.message, response.conversation)}
          photos={false}
        />
      )}
      {party && (
        <ReportDialog
          conversation={conversation}
          open={reporting}
          onClose={() => setReporting(false)}
        />
      )}
    </Stack>
  );
}
