import { ConversationReportReason } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import type { TranslationKey } from '@/lib/translation-key';

/** The words of each reason a conversation is reported for. */
const REPORT_REASON_KEYS: Partial<Record<ConversationReportReason, TranslationKey>> = {
  [ConversationReportReason.SPAM]: 'conversations.report.reasons.spam',
  [ConversationReportReason.ABUSE]: 'conversations.report.reasons.abuse',
  [ConversationReportReason.FRAUD]: 'conversations.report.reasons.fraud',
  [ConversationReportReason.OTHER]: 'conversations.report.reasons.other',
};

/** The words of a reason ('Something else' for one this app does not know). */
export const reportReasonKey = (reason: ConversationReportReason): TranslationKey =>
  REPORT_REASON_KEYS[reason] ?? 'conversations.report.reasons.other';
