import { Button, HStack, Input, Stack } from '@chakra-ui/react';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ToggleField } from '@/components/form/toggle-field';
import { useServerErrors } from '@/components/form/use-server-errors';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { SelectInput } from '@/components/ui/select-input';
import { SmsUpdates } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { COUNTRY_CODES, phoneDigits, type CountryCode } from '@/lib/phone';
import { CODE_STEP_PATHS } from '../account-paths';
import { useSendPhoneCode } from '../api/send-phone-code';
import { useCodeWait } from '../code-wait';
import { AuthCard } from '../components/auth-card';
import { CodeWaitNotice } from '../components/code-wait-notice';
import type { MemberRole } from '../roles';

interface PhoneValues {
  countryCode: CountryCode;
  phoneNumber: string;
  smsUpdates: boolean;
}

/** What the code step needs from this one. */
export interface CodeStepState {
  /** When a new code may be asked for (epoch ms). */
  nextSendAt?: number;
}

const SERVER_FIELDS = { country_code: 'countryCode', phone_number: 'phoneNumber' } as const;

/** National numbers the server accepts: 10 digits (a Canadian one may start with 1). */
function nationalDigits(countryCode: CountryCode, typed: string): string | null {
  const digits = typed.replace(/[\s().-]/g, '');
  if (!/^\d+$/.test(digits)) return null;
  const national = countryCode === '+1' && digits.length === 11 ? digits.replace(/^1/, '') : digits;
  const valid = countryCode === '+1' ? /^[2-9]\d{2}[2-9]\d{6}$/ : /^[6-9]\d{9}$/;
  return valid.test(national) ? national : null;
}

/**
 * /phone-otp/{id} and /professional-phone-otp/{id}: the phone number with its country code
 * (+1 CA or +91 IN) and the SMS choice; AccountsService.SendPhoneCode texts a code and the
 * code step opens. Sent again within the wait between codes (another number, just after
 * one), the server's refusal starts a countdown, and the button waits for its end.
 */
export function PhonePage({ role }: { role: MemberRole }) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useLocalizedNavigate();
  const send = useSendPhoneCode();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<PhoneValues>({
    defaultValues: { countryCode: '+1', phoneNumber: '', smsUpdates: true },
  });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });
  const wait = useCodeWait(null);
  const waiting = wait.secondsLeft > 0;

  const onSubmit = handleSubmit((values) => {
    if (waiting) return;
    server.clear();
    send.mutate(
      {
        accountId: id,
        countryCode: values.countryCode,
        phoneNumber: values.phoneNumber,
        smsUpdates: values.smsUpdates ? SmsUpdates.YES : SmsUpdates.NO,
      },
      {
        onSuccess: (sent) => {
          const state: CodeStepState = {
            nextSendAt: sent.nextSendTime ? timestampMs(sent.nextSendTime) : undefined,
          };
          void navigate(CODE_STEP_PATHS[role](id, phoneDigits(sent.phone)), { state });
        },
        onError: (error) => {
          if (!wait.fromRefusal(error)) server.report(error);
        },
      },
    );
  });

  return (
    <AuthCard
      title={t(role === 'customer' ? 'pages.phoneOtp' : 'pages.professionalPhoneOtp')}
      intro={t('phone.intro')}
    >
      {server.formError && <FormAlert title={server.formError} />}
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="4">
          <HStack align="start" gap="3">
            <FormField label={t('phone.countryCode')} error={errors.countryCode?.message} required>
              <SelectInput
                width="28"
                options={COUNTRY_CODES.map(({ code, country }) => ({
                  value: code,
                  label: `${country} ${code}`,
                }))}
                {...register('countryCode')}
              />
            </FormField>
            <FormField label={t('phone.number')} error={errors.phoneNumber?.message} required>
              <Input
                type="tel"
                autoComplete="tel-national"
                inputMode="tel"
                placeholder={t('phone.numberPlaceholder')}
                {...register('phoneNumber', {
                  validate: (value, { countryCode }) =>
                    value.trim() === ''
                      ? t('phone.errors.numberRequired')
                      : nationalDigits(countryCode, value) !== null ||
                        t(
                          countryCode === '+1'
                            ? 'phone.errors.numberCanada'
                            : 'phone.errors.numberIndia',
                        ),
                })}
              />
            </FormField>
          </HStack>
          <ToggleField
            control={control}
            name="smsUpdates"
            label={t('phone.smsUpdates')}
            kind="checkbox"
          />
          <Button
            type="submit"
            colorPalette="brand"
            loading={send.isPending}
            aria-disabled={waiting || undefined}
          >
            {t('phone.sendCode')}
          </Button>
          <CodeWaitNotice wait={wait} />
        </Stack>
      </form>
    </AuthCard>
  );
}
