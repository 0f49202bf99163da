import type { TFunction } from 'i18next';
import type { ConversationMessage } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** A conversation's newest message on one line: its text (translated), 'Photo', or 'deleted'. */
export function lastMessageText(message: ConversationMessage, t: TFunction): string {
  if (message.deleted) return t('conversations.deleted');
  const text = message.textTranslation || message.text;
  if (text !== '') return text;
  return t('photos.thumbCount', { count: message.photos.length });
}
