import { Box } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { RecordPage } from '@/components/record-page';
import { FormAlert } from '@/components/ui/form-alert';
import { DisputeState } from '@/gen/repairs/billing/v1/billing_pb';
import { useDispute } from '../api/disputes';
import { DisputeFacts } from '../components/dispute-facts';
import { EvidenceConversation, EvidenceFacts, SentEvidence } from '../components/evidence';
import { EvidenceForm } from '../components/evidence-form';
import { DISPUTE_PATHS } from '../paths';

/**
 * /admin/disputes/{disputeId}: a card dispute, the evidence the platform holds for it (the
 * customer, the request and quote, the job's times, its conversation, photos and receipt)
 * and, while the bank waits for it, the form that sends it with the admin's note; once sent,
 * the note and the text as the gateway got them.
 */
export function DisputePage() {
  const { t } = useTranslation();
  const { disputeId = '' } = useParams();
  const { data, isPending, error } = useDispute(disputeId);
  const [sent, setSent] = useState(false);
  const sentRef = useRef<HTMLDivElement>(null);
  // The form is gone once the evidence is sent: the focus goes to the news that it was.
  useEffect(() => {
    if (sent) sentRef.current?.focus();
  }, [sent]);
  const dispute = data?.dispute;
  const evidence = data?.evidence;
  const submitted = Boolean(dispute?.evidenceSubmitTime);
  const waiting = dispute?.state === DisputeState.NEEDS_RESPONSE && !submitted;
  return (
    <RecordPage
      back={{ to: DISPUTE_PATHS.adminList, label: t('disputes.backToList') }}
      title={t('pages.adminDispute')}
      isPending={isPending}
      error={error}
    >
      {sent && (
        <Box ref={sentRef} tabIndex={-1}>
          <FormAlert status="success" title={t('disputes.sent')} />
        </Box>
      )}
      {dispute && <DisputeFacts dispute={dispute} />}
      {evidence && (
        <>
          <EvidenceFacts evidence={evidence} sent={submitted} />
          <EvidenceConversation messages={evidence.messages} />
          {submitted && <SentEvidence evidence={evidence} />}
        </>
      )}
      {dispute && waiting && <EvidenceForm dispute={dispute} onSent={() => setSent(true)} />}
    </RecordPage>
  );
}
