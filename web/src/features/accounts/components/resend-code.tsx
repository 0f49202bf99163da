import { Button, Stack, Text } from '@chakra-ui/react';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { SmsUpdates } from '@/gen/repairs/accounts/v1/accounts_pb';
import { splitPhoneDigits } from '@/lib/phone';
import { useSecondsUntil } from '@/lib/use-seconds-until';
import { useSendPhoneCode } from '../api/send-phone-code';

interface ResendCodeProps {
  accountId: string;
  phoneDigits: string;
  /** When the first code allows another one (epoch ms); now when unknown. */
  initialNextSendAt: number | null;
}

/** "Resend the code", waiting out the 30 s between sends with a countdown. */
export function ResendCode({ accountId, phoneDigits, initialNextSendAt }: ResendCodeProps) {
  const { t } = useTranslation();
  const send = useSendPhoneCode();
  const [nextSendAt, setNextSendAt] = useState(initialNextSendAt);
  const secondsLeft = useSecondsUntil(nextSendAt);
  const phone = splitPhoneDigits(phoneDigits);

  const resend = () => {
    if (!phone) return;
    send.mutate(
      {
        accountId,
        countryCode: phone.countryCode,
        phoneNumber: phone.national,
        smsUpdates: SmsUpdates.UNSPECIFIED,
      },
      {
        onSuccess: (sent) =>
          setNextSendAt(sent.nextSendTime ? timestampMs(sent.nextSendTime) : Date.now() + 30_000),
      },
    );
  };

  return (
    <Stack gap="3">
      {send.isSuccess && <FormAlert status="success" title={t('phone.codeResent')} />}
      {send.error && <RpcErrorAlert error={send.error} />}
      {secondsLeft > 0 ? (
        <Text color="fg.muted">{t('phone.resendIn', { seconds: secondsLeft })}</Text>
      ) : (
        <Button
          variant="plain"
          color="brand.fg"
          textDecoration="underline"
          alignSelf="start"
          px="0"
          onClick={resend}
          loading={send.isPending}
          disabled={!phone}
        >
          {t('phone.resend')}
        </Button>
      )}
    </Stack>
  );
}
