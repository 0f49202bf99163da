import { Button, HStack, Stack } from '@chakra-ui/react';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useServerErrors } from '@/components/form/use-server-errors';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { CheckboxGroupField } from '@/components/ui/checkbox-group-field';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormAlert } from '@/components/ui/form-alert';
import { toaster } from '@/components/ui/toast';
import type { Professional } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useApprovePendingChange, useRefusePendingChange } from '../api/decide-pending-change';
import { useReasonRules } from '../reason-rules';
import { ReasonField } from './reason-field';

const SERVER_FIELDS = { reason: 'reason', revoke_licence_ids: 'revoke' } as const;

interface RefusalValues {
  reason: string;
  /** Ids of approved licences the refusal revokes. */
  revoke: string[];
}

/**
 * An admin's decisions on a professional's pending change, naming the revision shown:
 * approve it (after a confirmation), or refuse it with a reason the professional reads,
 * revoking approved licences if need be (revoking the last one ends their quotes).
 */
export function PendingChangeDecisions({ professional }: { professional: Professional }) {
  const { t } = useTranslation();
  const approve = useApprovePendingChange();
  const [askApprove, setAskApprove] = useState(false);
  const [refusing, setRefusing] = useState(false);
  const change = professional.pendingChange;
  if (!change) return null;
  const { id } = professional;
  const onApprove = () =>
    approve.mutate(
      { id, revision: change.revision },
      {
        onSuccess: () =>
          toaster.create({ type: 'success', title: t('pendingChange.approvedToast') }),
        onSettled: () => setAskApprove(false),
      },
    );
  return (
    <Stack gap="4">
      {approve.error && <RpcErrorAlert error={approve.error} />}
      <HStack gap="3" wrap="wrap" role="group" aria-label={t('pendingChange.decisions')}>
        <Button colorPalette="green" onClick={() => setAskApprove(true)}>
          <Check aria-hidden />
          {t('pendingChange.approve')}
        </Button>
        <Button colorPalette="accent" variant="outline" onClick={() => setRefusing(true)}>
          <X aria-hidden />
          {t('pendingChange.refuse')}
        </Button>
      </HStack>
      {refusing && (
        <RefusalForm
          professional={professional}
          revision={change.revision}
          onDone={() => setRefusing(false)}
        />
      )}
      <ConfirmDialog
        open={askApprove}
        title={t('pendingChange.approveQuestion')}
        confirmLabel={t('pendingChange.approve')}
        loading={approve.isPending}
        onCancel={() => setAskApprove(false)}
        onConfirm={onApprove}
      >
        {professional.name}
      </ConfirmDialog>
    </Stack>
  );
}

function RefusalForm({
  professional,
  revision,
  onDone,
}: {
  professional: Professional;
  revision: number;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const refuse = useRefusePendingChange();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<RefusalValues>({ defaultValues: { reason: '', revoke: [] } });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });
  const reasonRules = useReasonRules('pendingChange.reasonRequired');
  const approvedLicences = professional.licences
    .filter((licence) => !licence.awaitingReview)
    .map((licence) => ({ value: licence.id, label: licence.label }));

  const onSubmit = handleSubmit(({ reason, revoke }) => {
    server.clear();
    refuse.mutate(
      { id: professional.id, reason: reason.trim(), revokeLicenceIds: revoke, revision },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: t('pendingChange.refusedToast') });
          onDone();
        },
        onError: server.report,
      },
    );
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-label={t('pendingChange.refuse')}>
      <Stack gap="4">
        {server.formError && <FormAlert title={server.formError} />}
        <ReasonField
          label={t('pendingChange.reason')}
          helperText={t('pendingChange.reasonHelp')}
          error={errors.reason?.message}
          registration={register('reason', reasonRules)}
          rows={4}
        />
        {approvedLicences.length > 0 && (
          <Controller
            control={control}
            name="revoke"
            render={({ field }) => (
              <CheckboxGroupField
                legend={t('pendingChange.revoke')}
                helperText={t('pendingChange.revokeHelp')}
                options={approvedLicences}
                value={field.value}
                onChange={field.onChange}
                error={errors.revoke?.message}
              />
            )}
          />
        )}
        <HStack gap="3">
          <Button type="submit" colorPalette="accent" loading={refuse.isPending}>
            {t('pendingChange.refuse')}
          </Button>
          <Button variant="outline" onClick={onDone}>
            {t('common.cancel')}
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
