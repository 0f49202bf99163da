import { Box, Button, Separator, HStack, Stack, Text } from '@chakra-ui/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { Role } from '@/gen/repairs/accounts/v1/accounts_pb';
import { loadScript } from '@/lib/browser';
import { toProtoLanguage } from '@/lib/proto-language';
import { readRpcError } from '@/lib/rpc-error';
import { useLanguage } from '@/lib/use-language';
import { useSignInOptions } from '../api/get-sign-in-options';
import { useSignInWithFacebook } from '../api/sign-in-with-facebook';
import { useSignInWithGoogle } from '../api/sign-in-with-google';
import { useStartSession } from '../sign-in';
import { SocialLinkPassword } from './social-link-password';

/** The parts of Google Identity Services and of the Facebook SDK the buttons use. */
interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: {
        client_id: string;
        callback: (response: { credential: string }) => void;
      }): void;
      renderButton(parent: HTMLElement, options: Record<string, string | number>): void;
    };
  };
}
interface FacebookSdk {
  init(options: { appId: string; version: string; cookie: boolean; xfbml: boolean }): void;
  login(
    callback: (response: { authResponse?: { accessToken: string } | null }) => void,
    options: { scope: string },
  ): void;
}
type WithProviders = Window & { google?: GoogleIdentity; FB?: FacebookSdk };

const GOOGLE_SCRIPT = 'https://accounts.google.com/gsi/client';
const facebookScript = (locale: string) => `https://connect.facebook.net/${locale}/sdk.js`;

function GoogleButton({ clientId, onToken, onFailure }: ProviderProps & { clientId: string }) {
  const language = useLanguage();
  const holder = useRef<HTMLDivElement>(null);
  const onTokenRef = useRef(onToken);
  useEffect(() => {
    onTokenRef.current = onToken;
  });
  useEffect(() => {
    let cancelled = false;
    loadScript(GOOGLE_SCRIPT)
      .then(() => {
        const google = (window as WithProviders).google;
        if (cancelled || !google || !holder.current) return;
        google.accounts.id.initialize({
          client_id: clientId,
          callback: ({ credential }) => onTokenRef.current(credential),
        });
        google.accounts.id.renderButton(holder.current, {
          theme: 'outline',
          size: 'large',
          text: 'continue_with',
          locale: language,
          width: 320,
        });
      })
      .catch(onFailure);
    return () => {
      cancelled = true;
    };
  }, [clientId, language, onFailure]);
  return <Box ref={holder} minH="10" display="flex" justifyContent="center" />;
}

interface ProviderProps {
  onToken: (token: string) => void;
  onFailure: () => void;
}

function FacebookButton({ appId, onToken, onFailure }: ProviderProps & { appId: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [loading, setLoading] = useState(false);
  const start = async () => {
    setLoading(true);
    try {
      await loadScript(facebookScript(language === 'fr' ? 'fr_CA' : 'en_US'));
      const sdk = (window as WithProviders).FB;
      if (!sdk) throw new Error('Facebook SDK missing');
      sdk.init({ appId, version: 'v21.0', cookie: false, xfbml: false });
      sdk.login(
        (response) => {
          setLoading(false);
          if (response.authResponse?.accessToken) onToken(response.authResponse.accessToken);
        },
        { scope: 'email' },
      );
    } catch {
      setLoading(false);
      onFailure();
    }
  };
  return (
    <Button variant="outline" w="full" loading={loading} onClick={() => void start()}>
      {t('auth.continueWithFacebook')}
    </Button>
  );
}

/** A provider's proof of who is signing in, kept to resend it with the account's password. */
type Attempt =
  { provider: 'google'; idToken: string } | { provider: 'facebook'; accessToken: string };

const needsPassword = (error: unknown) =>
  readRpcError(error).reason === 'SOCIAL_LINK_NEEDS_PASSWORD';

/**
 * The customer's outside sign-in buttons, only those the server has configured
 * (AccountsService.GetSignInOptions): Google, and Facebook where `facebook` is asked for.
 * When the email belongs to an account whose email was never confirmed, the same sign-in is
 * sent again with that account's password (SocialLinkPassword).
 */
export function SocialSignIn({ facebook = false }: { facebook?: boolean }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { googleClientId, facebookAppId } = useSignInOptions();
  const google = useSignInWithGoogle();
  const fb = useSignInWithFacebook();
  const startSession = useStartSession();
  const [unavailable, setUnavailable] = useState(false);
  const [linking, setLinking] = useState<Attempt | null>(null);
  const failed = useCallback(() => setUnavailable(true), []);
  const showFacebook = facebook && facebookAppId !== '';
  if (!googleClientId && !showFacebook) return null;

  const common = { role: Role.CUSTOMER, language: toProtoLanguage(language) };
  const signedIn = ({ session }: { session?: Parameters<typeof startSession>[0] }) =>
    startSession(session, { case: undefined });
  const send = (attempt: Attempt, password = '', report?: (error: unknown) => void) => {
    const options = {
      onSuccess: signedIn,
      onError: (error: unknown) => {
        if (needsPassword(error)) setLinking(attempt);
        else report?.(error);
      },
    };
    if (attempt.provider === 'google')
      google.mutate({ ...common, idToken: attempt.idToken, password }, options);
    else fb.mutate({ ...common, accessToken: attempt.accessToken, password }, options);
  };
  const error = google.error ?? fb.error;

  return (
    <Stack gap="4">
      <HStack gap="3">
        <Separator flex="1" />
        <Text color="fg.muted" fontSize="sm">
          {t('auth.or')}
        </Text>
        <Separator flex="1" />
      </HStack>
      {linking ? (
        <SocialLinkPassword
          loading={google.isPending || fb.isPending}
          onSubmit={(password, report) => send(linking, password, report)}
          onCancel={() => {
            google.reset();
            fb.reset();
            setLinking(null);
          }}
        />
      ) : (
        <>
          {googleClientId && (
            <GoogleButton
              clientId={googleClientId}
              onToken={(idToken) => send({ provider: 'google', idToken })}
              onFailure={failed}
            />
          )}
          {showFacebook && (
            <FacebookButton
              appId={facebookAppId}
              onToken={(accessToken) => send({ provider: 'facebook', accessToken })}
              onFailure={failed}
            />
          )}
          {error && !needsPassword(error) && <RpcErrorAlert error={error} />}
        </>
      )}
      {unavailable && <FormAlert status="warning" title={t('auth.providerUnavailable')} />}
    </Stack>
  );
}
