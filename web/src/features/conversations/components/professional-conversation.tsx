import { Box, Button, Stack } from '@chakra-ui/react';
import { ChevronDown, ChevronUp, MessageSquare } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { UnreadBadge } from '@/components/ui/unread-badge';
import {
  RepairRequestState,
  type RepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { useConversations } from '../api/list-conversations';
import { ConversationThread } from './conversation-thread';

/**
 * The professional's conversation with a request's customer (their own: no professional id
 * is named), as a section of the request page; a link to #messages lands on it.
 */
export function ProfessionalConversation({ request }: { request: RepairRequest }) {
  const { t } = useTranslation();
  const location = useLocation();
  const section = useRef<HTMLDivElement>(null);
  const customer = request.contacts?.customer?.name || t('conversations.theCustomer');

  useEffect(() => {
    if (location.hash === '#messages') section.current?.scrollIntoView();
  }, [location.hash]);

  return (
    <Box id="messages" ref={section}>
      <ConversationThread
        conversation={{ repairRequestId: request.id, professionalId: '' }}
        reader="professional"
        title={t('conversations.withCustomer')}
        names={{ customer, professional: '' }}
        beforeHire={request.state === RepairRequestState.OPEN}
      />
    </Box>
  );
}

/**
 * On a job's card: 'Messages with the customer' and its unread count, opening the
 * conversation in place (it loads, and is marked read, only once open).
 */
export function JobConversation({ request }: { request: RepairRequest }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const conversations = useConversations({ repairRequestId: request.id, pageSize: 1 });
  const unread = conversations.data?.conversations[0]?.unreadCount ?? 0;
  return (
    <Stack gap="3">
      <Button
        variant="outline"
        colorPalette="brand"
        alignSelf="start"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((shown) => !shown)}
      >
        <MessageSquare aria-hidden />
        {t('conversations.withCustomer')}
        <UnreadBadge count={unread} />
        {open ? <ChevronUp aria-hidden /> : <ChevronDown aria-hidden />}
      </Button>
      <Box id={panelId} hidden={!open}>
        {open && <ProfessionalConversation request={request} />}
      </Box>
    </Stack>
  );
}
