import { Badge, Button, HStack, Stack, Text, Wrap } from '@chakra-ui/react';
import { KeyRound, Ban } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { PageTitle } from '@/components/page-title';
import { PagedList } from '@/components/paged-list';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import type { Column } from '@/components/ui/simple-table';
import { toaster } from '@/components/ui/toast';
import type { ServiceAccount } from '@/gen/repairs/accounts/v1/accounts_pb';
import { readRpcError } from '@/lib/rpc-error';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useServiceAccountsPage } from '../api/list-service-accounts';
import { useRevokeServiceAccount } from '../api/revoke-service-account';
import { useRotateServiceAccountKey } from '../api/rotate-service-account-key';
import { CreateServiceAccountForm } from '../components/create-service-account-form';
import { NewKeyPanel } from '../components/new-key-panel';
import { scopeKey } from '../service-scopes';

/** What an admin is asked to confirm. */
type Pending = { kind: 'rotate' | 'revoke'; account: ServiceAccount };

/**
 * /admin/service-accounts: the credentials of internal services (AccountsService service
 * accounts). An admin makes one with a name and scopes and is shown its key once, with a copy
 * button; rotates its key (the old one keeps working for the grace period) and revokes it.
 */
export function ServiceAccountsPage() {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const problemMessage = useProblemMessage();
  const pages = usePageTokens();
  const { data, isPending, error } = useServiceAccountsPage(pages.token);
  const rotate = useRotateServiceAccountKey();
  const revoke = useRevokeServiceAccount();
  const [shownKey, setShownKey] = useState<{ name: string; secret: string } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const failed = (failure: unknown) =>
    toaster.create({ type: 'error', title: problemMessage(readRpcError(failure)) });
  const scopeLabel = (scope: string) => {
    const key = scopeKey(scope);
    return key ? t(key) : scope;
  };

  const confirm = () => {
    if (!pending) return;
    const { kind, account } = pending;
    const done = { onError: failed, onSettled: () => setPending(null) };
    if (kind === 'rotate') {
      rotate.mutate(
        { id: account.id },
        { ...done, onSuccess: ({ key }) => setShownKey({ name: account.name, secret: key }) },
      );
    } else {
      revoke.mutate(
        { id: account.id },
        {
          ...done,
          onSuccess: () =>
            toaster.create({
              type: 'success',
              title: t('serviceAccounts.revoked', { name: account.name }),
            }),
        },
      );
    }
  };

  const columns: Column<ServiceAccount>[] = [
    {
      header: t('serviceAccounts.name'),
      cell: (account) => (
        <Stack gap="0">
          <Text fontWeight="medium">{account.name}</Text>
          <Text fontSize="xs" color="fg.muted">
            {t('serviceAccounts.createdBy', {
              when: formatTime(account.createTime),
              admin: account.createdByEmail || t('serviceAccounts.formerAdmin'),
            })}
          </Text>
        </Stack>
      ),
    },
    {
      header: t('serviceAccounts.scopes'),
      cell: (account) => (
        <Wrap gap="1">
          {account.scopes.map((scope) => (
            <Badge key={scope} variant="outline" whiteSpace="normal" h="auto" py="0.5">
              {scopeLabel(scope)}
            </Badge>
          ))}
        </Wrap>
      ),
    },
    {
      header: t('serviceAccounts.keys'),
      cell: (account) => (
        <Stack gap="1">
          {account.keys.map((key) => (
            <Text key={key.keyPrefix} fontSize="sm">
              <Text as="span" fontFamily="mono">
                {key.keyPrefix}…
              </Text>{' '}
              {key.expireTime
                ? t('serviceAccounts.worksUntil', { when: formatTime(key.expireTime) })
                : t('serviceAccounts.current')}
            </Text>
          ))}
        </Stack>
      ),
    },
    {
      header: t('serviceAccounts.lastUsed'),
      cell: (account) =>
        account.lastUsedTime ? formatTime(account.lastUsedTime) : t('serviceAccounts.neverUsed'),
    },
    {
      header: t('serviceAccounts.state'),
      cell: (account) =>
        account.revokeTime ? (
          <Badge colorPalette="red">
            {t('serviceAccounts.revokedOn', { when: formatTime(account.revokeTime) })}
          </Badge>
        ) : (
          <Badge colorPalette="green">{t('serviceAccounts.active')}</Badge>
        ),
    },
    {
      header: t('common.actions'),
      hiddenHeader: true,
      cell: (account) =>
        account.revokeTime ? null : (
          <HStack gap="2" wrap="wrap">
            <Button
              size="sm"
              variant="outline"
              aria-label={t('serviceAccounts.rotateLabel', { name: account.name })}
              onClick={() => setPending({ kind: 'rotate', account })}
            >
              <KeyRound aria-hidden />
              {t('serviceAccounts.rotate')}
            </Button>
            <Button
              size="sm"
              colorPalette="red"
              variant="outline"
              aria-label={t('serviceAccounts.revokeLabel', { name: account.name })}
              onClick={() => setPending({ kind: 'revoke', account })}
            >
              <Ban aria-hidden />
              {t('serviceAccounts.revoke')}
            </Button>
          </HStack>
        ),
    },
  ];

  return (
    <Stack gap="6">
      <PageTitle title={t('pages.adminServiceAccounts')} />
      <Text maxW="3xl">{t('serviceAccounts.intro')}</Text>
      {shownKey && (
        <NewKeyPanel
          name={shownKey.name}
          secret={shownKey.secret}
          onDone={() => setShownKey(null)}
        />
      )}
      <CreateServiceAccountForm
        onCreated={({ serviceAccount, key }) =>
          setShownKey({ name: serviceAccount?.name ?? '', secret: key })
        }
      />
      <PagedList
        caption={t('pages.adminServiceAccounts')}
        emptyTitle={t('serviceAccounts.none')}
        columns={columns}
        rowKey={(account) => account.id}
        rows={data?.serviceAccounts}
        nextPageToken={data?.nextPageToken ?? ''}
        isPending={isPending}
        error={error}
        pages={pages}
      />
      <ConfirmDialog
        open={pending !== null}
        title={
          pending?.kind === 'revoke'
            ? t('serviceAccounts.revokeQuestion', { name: pending.account.name })
            : t('serviceAccounts.rotateQuestion', { name: pending?.account.name ?? '' })
        }
        confirmLabel={
          pending?.kind === 'revoke' ? t('serviceAccounts.revoke') : t('serviceAccounts.rotate')
        }
        destructive={pending?.kind === 'revoke'}
        loading={rotate.isPending || revoke.isPending}
        onCancel={() => setPending(null)}
        onConfirm={confirm}
      >
        {pending?.kind === 'revoke'
          ? t('serviceAccounts.revokeExplained')
          : t('serviceAccounts.rotateExplained')}
      </ConfirmDialog>
    </Stack>
  );
}
