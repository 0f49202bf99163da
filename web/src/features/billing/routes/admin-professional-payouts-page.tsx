import { Button, Heading, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FactsList } from '@/components/ui/facts-list';
import { FormField } from '@/components/ui/form-field';
import { AppLink } from '@/components/ui/links';
import { toaster } from '@/components/ui/toast';
import type { Payout } from '@/gen/repairs/billing/v1/billing_pb';
import { useDateFormat } from '@/lib/use-date-format';
import { useMoneyFormat } from '@/lib/use-money-format';
import { usePayoutAccount } from '../api/get-payout-account';
import { useRecordManualPayout } from '../api/record-manual-payout';
import { useAttemptKey } from '../attempt-key';
import { PayoutFigures, PayoutLedger } from '../components/payout-ledger';
import { RecordManualPayoutRequestSchema } from '@/gen/repairs/billing/v1/billing_pb';
import { bound, formatFigure, limitOf } from '@/lib/contract-limits';
import { TestModeBadge } from '../components/test-mode-badge';
import { adminProfessionalPath } from '../paths';
import { OWED_STATES } from '../payout-states';

/** The longest note the ledger keeps: RecordManualPayoutRequest.note's max_len. */
const NOTE_MAX = bound(limitOf(RecordManualPayoutRequestSchema, 'note').maxLen, 'payout note');

/**
 * /admin/professional-payouts/{id}: what a professional is owed and was paid, and the
 * ledger. In test mode no money moves through the site, so an admin who paid the
 * professional by hand marks an owed entry paid, with a note, after confirming; the attempt
 * keeps its request_id while it is retried, so it is recorded once. With Stripe, owed entries
 * are transferred by the server and there is nothing to mark.
 */
export function AdminProfessionalPayoutsPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const formatMoney = useMoneyFormat();
  const formatDate = useDateFormat();
  const account = usePayoutAccount(id);
  const record = useRecordManualPayout();
  const attempt = useAttemptKey();
  const [asking, setAsking] = useState<Payout | null>(null);
  const [note, setNote] = useState('');
  const [noteMissing, setNoteMissing] = useState(false);
  const testMode = account.data?.account?.testMode ?? false;

  const ask = (payout: Payout) => {
    record.reset();
    setNote('');
    setNoteMissing(false);
    setAsking(payout);
  };
  const close = () => {
    if (!record.isPending) setAsking(null);
  };
  const confirm = async () => {
    if (!asking) return;
    const written = note.trim();
    if (!written) {
      setNoteMissing(true);
      return;
    }
    const payload = JSON.stringify([id, asking.orderId, written]);
    try {
      await attempt.send(payload, (requestId) =>
        record.mutateAsync({
          professionalId: id,
          orderIds: [asking.orderId],
          note: written,
          requestId,
        }),
      );
      setAsking(null);
      toaster.create({ type: 'success', title: t('payouts.admin.done') });
    } catch {
      // Shown in the dialog (record.error).
    }
  };

  const markPaid = (payout: Payout) =>
    testMode && OWED_STATES.includes(payout.state) ? (
      <Button
        size="sm"
        variant="outline"
        colorPalette="accent"
        aria-label={t('payouts.admin.markPaidLabel', {
          amount: formatMoney(payout.net),
          date: formatDate(payout.createTime),
        })}
        onClick={() => ask(payout)}
      >
        {t('payouts.admin.markPaid')}
      </Button>
    ) : null;

  return (
    <Stack gap="8">
      <AppLink to={adminProfessionalPath(id)} color="brand.fg">
        {t('payouts.admin.backToProfessional')}
      </AppLink>
      <PageTitle title={t('pages.adminProfessionalPayouts')} />
      {account.isPending && <RouteLoader />}
      {account.error && <RpcErrorAlert error={account.error} />}
      {account.data?.account && (
        <Stack gap="4">
          {testMode && <TestModeBadge />}
          <PayoutFigures account={account.data.account} reader="admin" />
          <Text color="fg.muted">
            {t(testMode ? 'payouts.admin.byHandHelp' : 'payouts.admin.automatic')}
          </Text>
        </Stack>
      )}
      <Stack as="section" gap="4" aria-labelledby="payouts-heading">
        <Heading as="h2" id="payouts-heading" size="lg" color="brand.900">
          {t('payouts.ledger')}
        </Heading>
        <PayoutLedger professionalId={id || null} action={markPaid} />
      </Stack>
      <ConfirmDialog
        open={asking !== null}
        title={t('payouts.admin.question')}
        confirmLabel={t('payouts.admin.markPaid')}
        loading={record.isPending}
        onCancel={close}
        onConfirm={() => void confirm()}
      >
        {asking && (
          <Stack gap="4">
            <Text>{t('payouts.admin.explain')}</Text>
            <FactsList
              facts={[
                [t('payouts.net'), formatMoney(asking.net)],
                [t('payouts.date'), formatDate(asking.createTime)],
              ]}
            />
            <FormField
              label={t('payouts.admin.note')}
              helperText={t('payouts.admin.noteHelp', { max: formatFigure(i18n, NOTE_MAX) })}
              error={noteMissing ? t('payouts.admin.noteMissing') : undefined}
              required
            >
              <Textarea
                value={note}
                maxLength={NOTE_MAX}
                rows={3}
                onChange={(event) => {
                  setNote(event.target.value);
                  setNoteMissing(false);
                }}
              />
            </FormField>
            {record.error && <RpcErrorAlert error={record.error} />}
          </Stack>
        )}
      </ConfirmDialog>
    </Stack>
  );
}
