import { Button } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { FormAlert } from '@/components/ui/form-alert';
import { CountedTextareaField } from '@/components/ui/counted-textarea-field';
import { FormSection } from '@/components/ui/form-section';
import { useAttemptKey } from '@/features/billing';
import {
  SubmitDisputeEvidenceRequestSchema,
  type Dispute,
} from '@/gen/repairs/billing/v1/billing_pb';
import { bound, limitOf } from '@/lib/contract-limits';
import { readRpcError } from '@/lib/rpc-error';
import { useSubmitDisputeEvidence } from '../api/disputes';

/** The contract's bound on the note: SubmitDisputeEvidenceRequest.note's max_len. */
const NOTE_MAX = bound(
  limitOf(SubmitDisputeEvidenceRequestSchema, 'note').maxLen,
  'dispute evidence note',
);

/**
 * The admin's note and the button that sends the evidence with it (SubmitDisputeEvidence),
 * while the bank waits for it. One attempt, one request_id: resent unchanged when the same
 * note is sent again after a failure that leaves the outcome unknown, so the evidence goes
 * once. A refusal is said in the form.
 */
export function EvidenceForm({ dispute, onSent }: { dispute: Dispute; onSent: () => void }) {
  const { t } = useTranslation();
  const problemMessage = useProblemMessage();
  const submit = useSubmitDisputeEvidence(dispute.id);
  const attempt = useAttemptKey();
  const [note, setNote] = useState('');
  const [refusal, setRefusal] = useState<string | undefined>();

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setRefusal(undefined);
    const written = note.trim();
    try {
      await attempt.send(JSON.stringify([dispute.id, written]), (requestId) =>
        submit.mutateAsync({ disputeId: dispute.id, requestId, note: written }),
      );
      onSent();
    } catch (failure) {
      setRefusal(problemMessage(readRpcError(failure)));
    }
  };

  return (
    <form noValidate onSubmit={(event) => void send(event)}>
      <FormSection title={t('disputes.formTitle')} description={t('disputes.formHelp')}>
        {refusal && <FormAlert status="error" title={refusal} />}
        <CountedTextareaField
          label={t('disputes.note')}
          count={note.length}
          limit={NOTE_MAX}
          rows={5}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
        <Button
          type="submit"
          alignSelf="start"
          colorPalette="brand"
          minH="11"
          loading={submit.isPending}
        >
          {t('disputes.submit')}
        </Button>
      </FormSection>
    </form>
  );
}
