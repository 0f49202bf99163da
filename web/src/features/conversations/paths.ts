import type { Conversation } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import type { Reader } from './conversation-ref';

/** The conversations' screens, and where each party reads a conversation of a request. */
export const CONVERSATION_PATHS = {
  customerMessages: '/user-messages',
  professionalMessages: '/professional-messages',
  reports: '/admin/reported-conversations',
  /** The customer's request page, on its conversation with one professional. */
  customerConversation: (requestId: string, professionalId: string) =>
    `/user-view-request/${encodeURIComponent(requestId)}?professional=${encodeURIComponent(professionalId)}#messages`,
  /** The professional's request page, on their conversation with the customer. */
  professionalConversation: (requestId: string) =>
    `/view-request/${encodeURIComponent(requestId)}#messages`,
} as const;

/** The search parameter of the customer's request page naming the conversation shown. */
export const PROFESSIONAL_PARAM = 'professional';

/** One of a conversation's two parties. */
export type Party = Exclude<Reader, 'admin'>;

/** Where a party reads a conversation: the request page, on it. */
export const conversationPath = (conversation: Conversation, reader: Party) =>
  reader === 'customer'
    ? CONVERSATION_PATHS.customerConversation(
        conversation.repairRequestId,
        conversation.professionalId,
      )
    : CONVERSATION_PATHS.professionalConversation(conversation.repairRequestId);
