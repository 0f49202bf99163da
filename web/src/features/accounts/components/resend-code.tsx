import { Stack } from '@chakra-ui/react';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { useTranslation } from 'react-i18next';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { TextButton } from '@/components/ui/text-button';
import { SmsUpdates } from '@/gen/repairs/accounts/v1/accounts_pb';
import { splitPhoneDigits } from '@/lib/phone';
import { useSendPhoneCode } from '../api/send-phone-code';
import { resendWaitOf, useCodeWait } from '../code-wait';
import { CodeWaitNotice } from './code-wait-notice';

interface ResendCodeProps {
  accountId: string;
  phoneDigits: string;
  /** When the first code allows another one (epoch ms); now when unknown. */
  initialNextSendAt: number | null;
}

/**
 * "Resend the code", waiting out the 30 s between sends with a countdown: after a code went
 * out, and when the server refuses one because the wait is not over (a reload forgot it).
 * While it waits the link stays where it is, in focus if it was, but does nothing.
 */
export function ResendCode({ accountId, phoneDigits, initialNextSendAt }: ResendCodeProps) {
  const { t } = useTranslation();
  const send = useSendPhoneCode();
  const wait = useCodeWait(initialNextSendAt);
  const waiting = wait.secondsLeft > 0;
  const phone = splitPhoneDigits(phoneDigits);

  const resend = () => {
    if (!phone || waiting) return;
    send.mutate(
      {
        accountId,
        countryCode: phone.countryCode,
        phoneNumber: phone.national,
        smsUpdates: SmsUpdates.UNSPECIFIED,
      },
      {
        onSuccess: (sent) =>
          wait.until(sent.nextSendTime ? timestampMs(sent.nextSendTime) : Date.now() + 30_000),
        onError: wait.fromRefusal,
      },
    );
  };

  return (
    <Stack gap="3">
      {send.isSuccess && <FormAlert status="success" title={t('phone.codeResent')} />}
      {send.error && resendWaitOf(send.error) === null && <RpcErrorAlert error={send.error} />}
      <TextButton
        alignSelf="start"
        onClick={resend}
        loading={send.isPending}
        disabled={!phone}
        aria-disabled={waiting || undefined}
      >
        {t('phone.resend')}
      </TextButton>
      <CodeWaitNotice wait={wait} />
    </Stack>
  );
}
