import { Button, Input, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFieldRules } from '@/components/form/use-field-rules';
import { useServerErrors } from '@/components/form/use-server-errors';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { FormSection } from '@/components/ui/form-section';
import { PasswordInput } from '@/components/ui/password-input';
import { TextButton } from '@/components/ui/text-button';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { readRpcError } from '@/lib/rpc-error';
import { browserStore } from '@/lib/storage';
import { browserPushDevice, type PushDevice } from '@/lib/web-push';
import { useRequestAccountDeletion } from '../api/request-account-deletion';
import { ACCOUNT_CLOSED_PATH, accountClosedState, forgetClosedAccount } from '../closed-account';
import type { MemberRole } from '../roles';

interface CloseValues {
  password: string;
  confirmEmail: string;
}

/** How the person proves the account is theirs: its password, or its email without one. */
type Proof = 'password' | 'email';

const SERVER_FIELDS = {
  password: { field: 'password', messageKey: 'closeAccount.passwordWrong' },
  confirm_email: { field: 'confirmEmail', messageKey: 'closeAccount.emailWrong' },
} as const;

interface CloseAccountSectionProps {
  role: MemberRole;
  /**
   * Whether the account has a password (true when unknown: the contract's Customer and
   * Professional do not say). Without one (Google or Facebook sign-in only), its email
   * address is asked instead; the person can switch, and a server that says the account has
   * no password switches too.
   */
  hasPassword?: boolean;
  /** This browser's push; tests pass a stand-in. */
  device?: PushDevice;
}

/**
 * "Close your account": what closing does and the grace period, then the account's password
 * (or its email address, for an account without a password), a confirming dialog, and
 * AccountsService.RequestAccountDeletion. The account is closed at once and its every
 * session ended: this browser forgets it (`forgetClosedAccount`) and opens the page that
 * says so, with when it is erased.
 */
export function CloseAccountSection({
  role,
  hasPassword = true,
  device = browserPushDevice,
}: CloseAccountSectionProps) {
  const { t } = useTranslation();
  const rules = useFieldRules();
  const navigate = useLocalizedNavigate();
  const queryClient = useQueryClient();
  const close = useRequestAccountDeletion();
  const [proof, setProof] = useState<Proof>(hasPassword ? 'password' : 'email');
  /** Set when the server said the account has no password: the form switched to the email. */
  const [noPassword, setNoPassword] = useState(false);
  const [confirming, setConfirming] = useState<CloseValues | null>(null);
  /** Closed: this browser is signing the account out and leaving for the closed page. */
  const [leaving, setLeaving] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<CloseValues>({
    defaultValues: { password: '', confirmEmail: '' },
    // Only the shown field is checked and sent.
    shouldUnregister: true,
  });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });

  useEffect(() => {
    if (noPassword) setFocus('confirmEmail');
  }, [noPassword, setFocus]);

  const switchProof = (next: Proof) => {
    server.clear();
    setNoPassword(false);
    setProof(next);
  };

  const onSubmit = handleSubmit((values) => {
    server.clear();
    setConfirming(values);
  });

  const onConfirm = () => {
    if (!confirming) return;
    const request =
      proof === 'password'
        ? { password: confirming.password }
        : { confirmEmail: confirming.confirmEmail.trim() };
    close.mutate(request, {
      onSuccess: async (answer) => {
        setLeaving(true);
        // The session is over on the server. Leave the guarded page first (with the session
        // still here, its guard would send the reader to the sign-in page instead, and a
        // call of its still on the way would come back refused), then forget the account
        // and every cached answer.
        await queryClient.cancelQueries();
        await navigate(ACCOUNT_CLOSED_PATH, { replace: true, state: accountClosedState(answer) });
        await forgetClosedAccount(role, browserStore(), device);
        queryClient.clear();
      },
      onError: (error) => {
        setConfirming(null);
        const asksEmail = readRpcError(error).violations.some((v) => v.field === 'confirm_email');
        if (proof === 'password' && asksEmail) {
          server.clear();
          setProof('email');
          setNoPassword(true);
          return;
        }
        server.report(error);
      },
    });
  };

  return (
    <FormSection title={t('closeAccount.title')} description={t('closeAccount.intro')}>
      <Stack as="ul" gap="1" ps="5" listStyleType="disc">
        <li>{t('closeAccount.signedOut')}</li>
        <li>{t(role === 'professional' ? 'closeAccount.quotes' : 'closeAccount.requests')}</li>
        <li>{t('closeAccount.erased')}</li>
        <li>{t('closeAccount.kept')}</li>
        <li>{t('closeAccount.held')}</li>
        <li>{t('closeAccount.keepLink')}</li>
      </Stack>
      <Text color="fg.muted">{t('closeAccount.copyFirst')}</Text>
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="4">
          {server.formError && <FormAlert title={server.formError} />}
          {noPassword && <FormAlert status="info" title={t('closeAccount.noPassword')} />}
          {proof === 'password' ? (
            <FormField label={t('closeAccount.password')} error={errors.password?.message} required>
              <PasswordInput
                autoComplete="current-password"
                {...register('password', rules.currentPassword)}
              />
            </FormField>
          ) : (
            <FormField
              label={t('closeAccount.email')}
              helperText={t('closeAccount.emailHelp')}
              error={errors.confirmEmail?.message}
              required
            >
              <Input type="email" autoComplete="email" {...register('confirmEmail', rules.email)} />
            </FormField>
          )}
          <TextButton
            alignSelf="start"
            onClick={() => switchProof(proof === 'password' ? 'email' : 'password')}
          >
            {t(proof === 'password' ? 'closeAccount.useEmail' : 'closeAccount.usePassword')}
          </TextButton>
          <Button type="submit" colorPalette="red" alignSelf="start" minH="11">
            {t('closeAccount.submit')}
          </Button>
        </Stack>
      </form>
      <ConfirmDialog
        open={confirming !== null}
        title={t('closeAccount.confirmTitle')}
        confirmLabel={t('closeAccount.confirm')}
        cancelLabel={t('closeAccount.keep')}
        onConfirm={onConfirm}
        onCancel={() => setConfirming(null)}
        loading={close.isPending || leaving}
        destructive
      >
        <Text>{t('closeAccount.confirmBody')}</Text>
      </ConfirmDialog>
    </FormSection>
  );
}
