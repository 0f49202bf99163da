import { Button, Input, Stack } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { useServerErrors } from '@/components/form/use-server-errors';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { AppLink } from '@/components/ui/links';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { PHONE_CODE_PATTERN, formatPhone } from '@/lib/phone';
import { PHONE_STEP_PATHS } from '../account-paths';
import { useVerifyPhoneCode } from '../api/verify-phone-code';
import { AuthCard } from '../components/auth-card';
import { ResendCode } from '../components/resend-code';
import { THANKS_PATHS, type MemberRole } from '../roles';
import type { CodeStepState } from './phone-page';

const SERVER_FIELDS = { code: 'code', phone: 'code' } as const;

/**
 * /otp-verify/{id}/{phone} and /professional-otp-verify/{id}/{phone}: the 4-digit code
 * (AccountsService.VerifyPhoneCode), a resend link with its countdown, and a way back to
 * change the number. A verified phone leads to the thank-you page.
 */
export function CodePage({ role }: { role: MemberRole }) {
  const { t } = useTranslation();
  const { id = '', phone = '' } = useParams();
  const navigate = useLocalizedNavigate();
  const nextSendAt = (useLocation().state as CodeStepState | null)?.nextSendAt ?? null;
  const verify = useVerifyPhoneCode();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });

  const onSubmit = handleSubmit(({ code }) => {
    server.clear();
    verify.mutate(
      { accountId: id, phone: `+${phone}`, code: code.trim() },
      {
        onSuccess: () => void navigate(THANKS_PATHS[role], { replace: true }),
        onError: server.report,
      },
    );
  });

  return (
    <AuthCard
      title={t(role === 'customer' ? 'pages.otpVerify' : 'pages.professionalOtpVerify')}
      intro={t('phone.codeIntro', { phone: formatPhone(phone) })}
    >
      {server.formError && <FormAlert title={server.formError} />}
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="4">
          <FormField label={t('phone.code')} error={errors.code?.message} required>
            <Input
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={4}
              width="32"
              fontSize="xl"
              letterSpacing="0.3em"
              {...register('code', {
                validate: (value) =>
                  PHONE_CODE_PATTERN.test(value.trim()) || t('phone.errors.codeFormat'),
              })}
            />
          </FormField>
          <Button type="submit" colorPalette="brand" loading={verify.isPending}>
            {t('phone.verify')}
          </Button>
        </Stack>
      </form>
      <ResendCode accountId={id} phoneDigits={phone} initialNextSendAt={nextSendAt} />
      <AppLink to={PHONE_STEP_PATHS[role](id)} color="brand.fg">
        {t('phone.changeNumber')}
      </AppLink>
    </AuthCard>
  );
}
