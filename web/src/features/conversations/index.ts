/**
 * The conversations between a request's customer and its professionals, as other features
 * use them: the threads of the request pages, the dashboards' unread messages, the
 * professional area's unread total and the customer's blocked professionals.
 */
export { BlockedProfessionals } from './components/blocked-professionals';
export { ConversationThread } from './components/conversation-thread';
export { JobConversation, ProfessionalConversation } from './components/professional-conversation';
export { RequestConversations } from './components/request-conversations';
export { UnreadConversations } from './components/unread-conversations';
export { CONVERSATION_PATHS } from './paths';
