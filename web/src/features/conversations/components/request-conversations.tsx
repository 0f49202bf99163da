import { Box, Button, Heading, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { UnreadBadge } from '@/components/ui/unread-badge';
import {
  QuoteState,
  RepairRequestState,
  type Conversation,
  type Quote,
  type RepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useBlockedProfessionals } from '../api/blocked-professionals';
import { useConversations, useUnreadFollowedClosely } from '../api/list-conversations';
import { PROFESSIONAL_PARAM } from '../paths';
import { ConversationThread } from './conversation-thread';
import { lastMessageText } from './last-message';
import { useBlockAction } from './use-block-action';

/** The contract's largest page: a request rarely has more conversations. */
const PAGE_SIZE = 100;

interface Correspondent {
  professionalId: string;
  name: string;
  conversation?: Conversation;
}

/** The professionals to talk with: those who wrote first (newest first), then those who quoted. */
function correspondents(
  conversations: Conversation[],
  quotes: { professionalId: string; professionalName: string; state: QuoteState }[],
): Correspondent[] {
  const seen = new Set(conversations.map((conversation) => conversation.professionalId));
  const quoted = quotes
    .filter((quote) => quote.state !== QuoteState.WITHDRAWN && !seen.has(quote.professionalId))
    .filter(
      (quote, index, all) =>
        all.findIndex((other) => other.professionalId === quote.professionalId) === index,
    )
    .map((quote) => ({ professionalId: quote.professionalId, name: quote.professionalName }));
  return [
    ...conversations.map((conversation) => ({
      professionalId: conversation.professionalId,
      name: conversation.professionalName,
      conversation,
    })),
    ...quoted,
  ];
}

interface RequestConversationsProps {
  request: RepairRequest;
  /** Its quotes, as the page follows them (undefined while they load). */
  quotes: Quote[] | undefined;
}

/**
 * The customer's conversations on one request: a list of the professionals who wrote or
 * quoted, each with its last message and unread count, and the conversation picked (kept in
 * the address as ?professional=, so a link can open it), with Block beside Report in its More
 * actions. The list follows the unread count closely (a professional's new message shows
 * within seconds), and the page's quotes (a professional who just quoted joins it).
 */
export function RequestConversations({ request, quotes }: RequestConversationsProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const section = useRef<HTMLDivElement>(null);
  const conversations = useConversations({ repairRequestId: request.id, pageSize: PAGE_SIZE });
  useUnreadFollowedClosely();
  const blocked = useBlockedProfessionals();
  const people = correspondents(conversations.data?.conversations ?? [], quotes ?? []);
  const picked =
    people.find((person) => person.professionalId === params.get(PROFESSIONAL_PARAM)) ?? people[0];
  const isBlocked = (professionalId: string) =>
    blocked.data?.blockedProfessionals.some((entry) => entry.professionalId === professionalId) ??
    false;
  const loading = conversations.isPending || quotes === undefined;

  // A link to #messages (from a dashboard, an email) lands on this section.
  useEffect(() => {
    if (location.hash === '#messages' && !loading) section.current?.scrollIntoView();
  }, [location.hash, loading]);

  const pick = (professionalId: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(PROFESSIONAL_PARAM, professionalId);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  return (
    <Stack as="section" id="messages" ref={section} gap="4" aria-labelledby="messages-heading">
      <Heading as="h2" id="messages-heading" size="lg" color="brand.900">
        {t('conversations.title')}
      </Heading>
      {loading && <RouteLoader />}
      {conversations.error && <RpcErrorAlert error={conversations.error} />}
      {!loading && !conversations.error && people.length === 0 && (
        <EmptyState title={t('conversations.noneOnRequest')}>
          {t('conversations.noneOnRequestHelp')}
        </EmptyState>
      )}
      {people.length > 0 && (
        <Stack direction={{ base: 'column', lg: 'row' }} gap="4" align="stretch">
          <Stack
            as="ul"
            aria-label={t('conversations.with')}
            gap="2"
            listStyleType="none"
            minW={{ lg: '64' }}
            maxW={{ lg: '64' }}
          >
            {people.map((person) => {
              const current = person.professionalId === picked?.professionalId;
              const last = person.conversation?.lastMessage;
              return (
                <Box as="li" key={person.professionalId}>
                  <Button
                    onClick={() => pick(person.professionalId)}
                    aria-current={current ? 'true' : undefined}
                    variant={current ? 'subtle' : 'outline'}
                    colorPalette="brand"
                    width="full"
                    height="auto"
                    py="2"
                    px="3"
                    justifyContent="space-between"
                    textAlign="start"
                    whiteSpace="normal"
                  >
                    <Stack gap="0" minW="0" flex="1">
                      <Text fontWeight="semibold" truncate>
                        {person.name}
                      </Text>
                      <Text fontSize="xs" fontWeight="normal" color="fg.muted" truncate>
                        {last ? lastMessageText(last, t) : t('conversations.quotedNoMessage')}
                      </Text>
                    </Stack>
                    <UnreadBadge count={person.conversation?.unreadCount ?? 0} />
                  </Button>
                </Box>
              );
            })}
          </Stack>
          {picked && (
            <Box flex="1" minW="0">
              <CustomerThread
                key={picked.professionalId}
                request={request}
                with={picked}
                blocked={isBlocked(picked.professionalId)}
              />
            </Box>
          )}
        </Stack>
      )}
      {people.length > 0 && (
        <Text fontSize="sm" color="fg.muted">
          {t('conversations.whoIsListed')}
        </Text>
      )}
    </Stack>
  );
}

/** The customer's thread with one professional, whom its More actions block or unblock. */
function CustomerThread({
  request,
  with: person,
  blocked,
}: {
  request: RepairRequest;
  with: Correspondent;
  blocked: boolean;
}) {
  const { t } = useTranslation();
  const block = useBlockAction(
    { professionalId: person.professionalId, professionalName: person.name },
    blocked,
  );
  return (
    <ConversationThread
      conversation={{ repairRequestId: request.id, professionalId: person.professionalId }}
      reader="customer"
      title={t('conversations.withName', { name: person.name })}
      names={{ customer: t('conversations.theCustomer'), professional: person.name }}
      beforeHire={request.state === RepairRequestState.OPEN}
      actions={[block]}
      closedNote={blocked ? t('conversations.block.blockedNote', { name: person.name }) : undefined}
    />
  );
}
