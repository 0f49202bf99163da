import { Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { SmsUpdates } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useUpdateSmsPreference } from '../api/update-sms-preference';

/**
 * "Do you wish to receive SMS updates?", asked while the account has not answered. Yes and
 * No are recorded (AccountsService.UpdateSmsPreference); closing the dialog counts as No.
 */
export function SmsUpdatesDialog({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const [answered, setAnswered] = useState(false);
  const update = useUpdateSmsPreference();
  const answer = (smsUpdates: SmsUpdates) =>
    update.mutate({ accountId, smsUpdates }, { onSuccess: () => setAnswered(true) });

  return (
    <ConfirmDialog
      open={!answered}
      title={t('smsUpdates.question')}
      confirmLabel={t('smsUpdates.yes')}
      cancelLabel={t('smsUpdates.no')}
      onConfirm={() => answer(SmsUpdates.YES)}
      onCancel={() => answer(SmsUpdates.NO)}
      loading={update.isPending}
    >
      <Stack gap="3">
        <Text>{t('smsUpdates.explanation')}</Text>
        {update.error && <RpcErrorAlert error={update.error} />}
      </Stack>
    </ConfirmDialog>
  );
}
