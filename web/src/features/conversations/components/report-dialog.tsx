import { Stack, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { RadioGroupField } from '@/components/ui/radio-group-field';
import { toaster } from '@/components/ui/toast';
import {
  ConversationReportReason,
  ReportConversationRequestSchema,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { bound, formatFigure, limitOf } from '@/lib/contract-limits';
import { readRpcError } from '@/lib/rpc-error';
import { useReportConversation } from '../api/report-conversation';
import type { ConversationRef } from '../conversation-ref';
import { reportReasonKey } from '../report-reasons';

/** The contract's bound on a report's details: ReportConversationRequest.details' max_len. */
const DETAILS_MAX = bound(limitOf(ReportConversationRequestSchema, 'details').maxLen, 'details');

const REASONS = [
  ConversationReportReason.SPAM,
  ConversationReportReason.ABUSE,
  ConversationReportReason.FRAUD,
  ConversationReportReason.OTHER,
];

interface ReportDialogProps {
  conversation: ConversationRef;
  open: boolean;
  onClose: () => void;
}

/**
 * Reporting a conversation to the admins (ReportConversation): why (spam, abuse, fraud,
 * other) and in the reporter's words, required with 'Other'. A toast says it was sent.
 */
export function ReportDialog({ conversation, open, onClose }: ReportDialogProps) {
  const { t, i18n } = useTranslation();
  const problemMessage = useProblemMessage();
  const report = useReportConversation();
  const [reason, setReason] = useState('');
  const [details, setDetails] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; details?: string; form?: string }>({});

  const close = () => {
    setErrors({});
    onClose();
  };

  const send = () => {
    const chosen = Number(reason) as ConversationReportReason;
    const found = {
      reason: reason === '' ? t('conversations.report.reasonRequired') : undefined,
      details:
        chosen === ConversationReportReason.OTHER && details.trim() === ''
          ? t('conversations.report.detailsRequired')
          : undefined,
    };
    setErrors(found);
    if (found.reason || found.details) return;
    report.mutate(
      { ...conversation, reason: chosen, details: details.trim() },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: t('conversations.report.sent') });
          setReason('');
          setDetails('');
          close();
        },
        onError: (error) => setErrors({ form: problemMessage(readRpcError(error)) }),
      },
    );
  };

  return (
    <ConfirmDialog
      open={open}
      title={t('conversations.report.title')}
      confirmLabel={t('conversations.report.send')}
      onConfirm={send}
      onCancel={close}
      loading={report.isPending}
      destructive
    >
      <Stack gap="4">
        {errors.form && <FormAlert title={errors.form} />}
        <RadioGroupField
          legend={t('conversations.report.reason')}
          options={REASONS.map((value) => ({
            value: String(value),
            label: t(reportReasonKey(value)),
          }))}
          value={reason}
          onChange={(value) => {
            setReason(value);
            setErrors({});
          }}
          error={errors.reason}
          columns={{ base: 1, md: 1 }}
          required
        />
        <FormField
          label={t('conversations.report.details')}
          helperText={t('conversations.report.detailsHelp', {
            max: formatFigure(i18n, DETAILS_MAX),
          })}
          error={errors.details}
          required={reason === String(ConversationReportReason.OTHER)}
        >
          <Textarea
            rows={3}
            maxLength={DETAILS_MAX}
            value={details}
            onChange={(event) => {
              setDetails(event.target.value);
              setErrors((shown) => ({ ...shown, details: undefined }));
            }}
          />
        </FormField>
      </Stack>
    </ConfirmDialog>
  );
}
