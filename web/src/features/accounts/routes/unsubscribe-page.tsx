import { Button, Stack, Text } from '@chakra-ui/react';
import { CircleCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { AppLink } from '@/components/ui/links';
import { NotificationTopic } from '@/gen/repairs/accounts/v1/accounts_pb';
import { readRpcError } from '@/lib/rpc-error';
import { ACCOUNT_PATHS, SIGN_IN_PATHS, signedInAccountId } from '@/lib/session';
import { browserSessionEnvironment } from '@/lib/session-environment';
import { useUnsubscribe } from '../api/unsubscribe';
import { AuthCard } from '../components/auth-card';
import type { MemberRole } from '../roles';

/** What the page says was turned off, by the kind the server names (the others: "these"). */
const DONE_KEYS = {
  [NotificationTopic.NEW_REQUESTS]: 'newRequests',
  [NotificationTopic.REQUEST_UPDATES]: 'requestUpdates',
  [NotificationTopic.REMINDERS]: 'reminders',
} as const;

const doneKey = (topic: NotificationTopic) =>
  topic in DONE_KEYS ? DONE_KEYS[topic as keyof typeof DONE_KEYS] : 'other';

/** Links among a page's text look like links: coloured and underlined. */
const IN_TEXT_LINK = { color: 'brand.fg', textDecoration: 'underline' } as const;

/**
 * /unsubscribe/{token}: the link at the foot of an email (not a receipt's or a security
 * message's), opened without signing in. Nothing happens on opening (mail scanners open
 * links): the page says what the link stops and waits for "Stop these emails"
 * (AccountsService.Unsubscribe), then says which kind is off and where every choice is made.
 * A link that was altered is said in the page, with the way to choose once signed in.
 */
export function UnsubscribePage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const unsubscribe = useUnsubscribe();
  const result = useRef<HTMLDivElement>(null);
  const done = unsubscribe.data !== undefined;
  const invalid =
    unsubscribe.error !== null &&
    readRpcError(unsubscribe.error).reason === 'UNSUBSCRIBE_LINK_INVALID';

  // The button is gone once it worked: the focus goes on to what the page now says.
  useEffect(() => {
    if (done) result.current?.focus();
  }, [done]);

  return (
    <AuthCard title={t('pages.unsubscribe')}>
      {!done && !invalid && (
        <Stack gap="4">
          <Text>{t('notifications.unsubscribe.intro')}</Text>
          <Text color="fg.muted">{t('notifications.unsubscribe.keep')}</Text>
          {unsubscribe.error && <RpcErrorAlert error={unsubscribe.error} />}
          <Button
            colorPalette="brand"
            alignSelf="start"
            minH="11"
            loading={unsubscribe.isPending}
            onClick={() => unsubscribe.mutate({ token })}
          >
            {t('notifications.unsubscribe.confirm')}
          </Button>
        </Stack>
      )}
      {/* Always there, so that the result is read out as it comes. */}
      <Stack gap="4" role="status" ref={result} tabIndex={-1} outline="none">
        {unsubscribe.data && (
          <>
            <CircleCheck size={48} color="var(--chakra-colors-green-600)" aria-hidden />
            <Text fontSize="lg" fontWeight="semibold">
              {t(`notifications.unsubscribe.done.${doneKey(unsubscribe.data.topic)}`)}
            </Text>
            <Text>{t('notifications.unsubscribe.changeAll')}</Text>
          </>
        )}
      </Stack>
      {invalid && <RpcErrorAlert error={unsubscribe.error} />}
      {(done || invalid) && <OwnAccountLinks />}
    </AuthCard>
  );
}

/** Where every choice is made: the reader's own account when signed in, else its sign-in. */
function OwnAccountLinks() {
  const { t } = useTranslation();
  const env = browserSessionEnvironment();
  const roles: MemberRole[] = ['customer', 'professional'];
  const signedIn = roles.filter((role) => signedInAccountId(role, env) !== null);
  return (
    <Stack gap="2" align="start">
      {signedIn.length > 0
        ? signedIn.map((role) => (
            <AppLink key={role} to={ACCOUNT_PATHS[role]} {...IN_TEXT_LINK}>
              {t(
                role === 'customer'
                  ? 'notifications.unsubscribe.openCustomer'
                  : 'notifications.unsubscribe.openProfessional',
              )}
            </AppLink>
          ))
        : roles.map((role) => (
            <AppLink key={role} to={SIGN_IN_PATHS[role]} {...IN_TEXT_LINK}>
              {t(
                role === 'customer'
                  ? 'notifications.unsubscribe.signInCustomer'
                  : 'notifications.unsubscribe.signInProfessional',
              )}
            </AppLink>
          ))}
    </Stack>
  );
}
