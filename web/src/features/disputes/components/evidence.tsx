import { Stack, Text } from '@chakra-ui/react';
import { timestampMs, type Timestamp } from '@bufbuild/protobuf/wkt';
import { useTranslation } from 'react-i18next';
import { FactsList } from '@/components/ui/facts-list';
import { FormSection } from '@/components/ui/form-section';
import { AppLink } from '@/components/ui/links';
import { receiptPath } from '@/features/billing';
import type { DisputeEvidence, DisputeEvidenceMessage } from '@/gen/repairs/billing/v1/billing_pb';
import { formatHours } from '@/lib/duration';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { useLanguage } from '@/lib/use-language';
import { useMoneyFormat } from '@/lib/use-money-format';
import { authorWords } from '../dispute-words';

/**
 * The evidence the platform holds about the disputed job (or, once sent, as it was sent): the
 * customer, the request, the quote, the times of the job ("Not recorded" when one is
 * missing), the photos, the amount charged and the receipt.
 */
export function EvidenceFacts({ evidence, sent }: { evidence: DisputeEvidence; sent: boolean }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const formatMoney = useMoneyFormat();
  const formatDateTime = useDateTimeFormat();
  const notRecorded = t('disputes.notRecorded');
  const timeOf = (time: Timestamp | undefined) => (time ? formatDateTime(time) : notRecorded);
  const minutes = evidence.quoteEstimatedMinutes;
  return (
    <FormSection
      title={t('disputes.evidenceTitle')}
      description={sent ? t('disputes.evidenceSentHelp') : t('disputes.evidenceHelp')}
    >
      <FactsList
        facts={[
          [t('disputes.customerName'), evidence.customerName || notRecorded],
          [t('disputes.customerEmail'), evidence.customerEmail || notRecorded],
          [t('disputes.requestTitle'), evidence.requestTitle || notRecorded],
          [t('disputes.requestDescription'), evidence.requestDescription || notRecorded],
          [t('disputes.quoteAmount'), formatMoney(evidence.quoteAmount) || notRecorded],
          [t('disputes.estimate'), minutes > 0 ? formatHours(minutes, language) : notRecorded],
          [t('disputes.hireTime'), timeOf(evidence.hireTime)],
          [t('disputes.arrivalTime'), timeOf(evidence.arrivalTime)],
          [t('disputes.completionTime'), timeOf(evidence.completionTime)],
          [t('disputes.photos'), t('disputes.photoCount', { count: evidence.photoCount })],
          [t('disputes.charged'), formatMoney(evidence.charged) || notRecorded],
          [
            t('disputes.receipt'),
            evidence.receiptId ? (
              <AppLink to={receiptPath(evidence.receiptId, 'admin')} color="brand.fg">
                {t('disputes.receiptLink')}
              </AppLink>
            ) : (
              notRecorded
            ),
          ],
        ]}
      />
    </FormSection>
  );
}

const sendMs = (message: DisputeEvidenceMessage) =>
  message.sendTime ? timestampMs(message.sendTime) : 0;

/** The job's conversation, oldest first: each message's author, time and words. */
export function EvidenceConversation({ messages }: { messages: DisputeEvidenceMessage[] }) {
  const { t } = useTranslation();
  const formatDateTime = useDateTimeFormat();
  const oldestFirst = [...messages].sort((a, b) => sendMs(a) - sendMs(b));
  return (
    <FormSection title={t('disputes.conversationTitle')}>
      {oldestFirst.length === 0 ? (
        <Text color="fg.muted">{t('disputes.noMessages')}</Text>
      ) : (
        <Stack as="ol" gap="4" listStyleType="none">
          {oldestFirst.map((message, index) => (
            <Stack as="li" key={index} gap="1" borderLeftWidth="3px" borderColor="border" ps="3">
              <Text fontSize="sm" color="fg.muted">
                <Text as="span" fontWeight="semibold" color="fg">
                  {t(authorWords(message.author))}
                </Text>
                {', '}
                {formatDateTime(message.sendTime)}
              </Text>
              <Text whiteSpace="pre-wrap" overflowWrap="anywhere">
                {message.text}
              </Text>
            </Stack>
          ))}
        </Stack>
      )}
    </FormSection>
  );
}

/** What was sent with the evidence: the admin's note and the whole text the gateway got. */
export function SentEvidence({ evidence }: { evidence: DisputeEvidence }) {
  const { t } = useTranslation();
  return (
    <FormSection title={t('disputes.sentTitle')}>
      <FactsList
        facts={[
          [t('disputes.sentNote'), evidence.note || t('disputes.noNote')],
          [
            t('disputes.submittedText'),
            <Text as="span" whiteSpace="pre-wrap" overflowWrap="anywhere">
              {evidence.submittedText}
            </Text>,
          ],
        ]}
      />
    </FormSection>
  );
}
