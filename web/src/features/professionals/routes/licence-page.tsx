import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { FormProvider, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useServerErrors } from '@/components/form/use-server-errors';
import { PageTitle } from '@/components/page-title';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormAlert } from '@/components/ui/form-alert';
import { statusOf, statusPath } from '@/features/accounts';
import type { Licence } from '@/gen/repairs/accounts/v1/accounts_pb';
import { fileBytes } from '@/lib/files';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { notBlank } from '@/lib/validation';
import { useAddLicence } from '../api/add-licence';
import { useDeleteLicence } from '../api/delete-licence';
import { usePreviewDeleteLicence } from '../api/preview-delete-licence';
import { useSubmitProfileForReview } from '../api/submit-profile-for-review';
import { FlashNotice } from '../components/flash-notice';
import {
  LicenceRowFields,
  type LicenceRowValues,
  type LicenceValues,
} from '../components/licence-row-fields';
import { LicenceTable } from '../components/licence-table';
import { flashAfterSave, type FlashState } from '../flash';
import { useProfessionalAccount } from '../professional-context';
import { MAX_LICENCES } from '../profile-fields';

const EMPTY_ROW: LicenceRowValues = { label: '', files: null };
const isFilled = (row: LicenceRowValues) => notBlank(row.label) && (row.files?.length ?? 0) > 0;

/**
 * /update-professional-licence ('Update Your Licence'): repeatable rows of a label and a file
 * (AccountsService.AddLicence each), the licences already sent (removable), then the profile
 * goes to review (AccountsService.SubmitProfileForReview) and the page of its state opens.
 * Continuing with only blank rows asks first.
 */
export function LicencePage() {
  const { t } = useTranslation();
  const navigate = useLocalizedNavigate();
  const { professional } = useProfessionalAccount();
  const id = professional?.id ?? '';
  const existing = professional?.licences ?? [];
  const addLicence = useAddLicence();
  const submit = useSubmitProfileForReview();
  const form = useForm<LicenceValues>({ defaultValues: { rows: [EMPTY_ROW] } });
  const rows = useFieldArray({ control: form.control, name: 'rows' });
  const server = useServerErrors(form.setError, { fields: {} });
  const [uploading, setUploading] = useState(false);
  const [askBlank, setAskBlank] = useState(false);

  const finish = (flash: 'licence-updated' | 'submitted') => {
    server.clear();
    submit.mutate(
      { id },
      {
        onSuccess: ({ professional: saved }) => {
          const state: FlashState = { flash: flashAfterSave(saved, flash) };
          void navigate(statusPath(statusOf(saved?.state ?? 0)), { state });
        },
        onError: server.report,
      },
    );
  };

  const upload = form.handleSubmit(async ({ rows: values }) => {
    server.clear();
    if (!values.some(isFilled)) {
      setAskBlank(true);
      return;
    }
    setUploading(true);
    const sent: number[] = [];
    for (const [index, row] of values.entries()) {
      const file = row.files?.[0];
      if (!file || !isFilled(row)) continue;
      try {
        await addLicence.mutateAsync({
          professionalId: id,
          label: row.label.trim(),
          fileName: file.name,
          contentType: file.type,
          content: await fileBytes(file),
        });
        sent.push(index);
      } catch (error) {
        rows.remove(sent);
        const at = index - sent.length;
        server.reportFor(error, { label: `rows.${at}.label`, content: `rows.${at}.files` });
        setUploading(false);
        return;
      }
    }
    setUploading(false);
    finish('licence-updated');
  });

  const room = MAX_LICENCES - existing.length - rows.fields.length;
  const busy = uploading || submit.isPending;

  return (
    <Stack gap="6" maxW="4xl">
      <PageTitle title={t('licences.title')} />
      <FlashNotice />
      {professional?.licenceNeededSince && (
        <FormAlert status="warning" title={t('licences.needed')} />
      )}
      <Text color="fg.muted">{t('licences.intro')}</Text>
      {existing.length > 0 && <ExistingLicences professionalId={id} licences={existing} />}
      {server.formError && <FormAlert title={server.formError} />}
      <FormProvider {...form}>
        <form noValidate onSubmit={(event) => void upload(event)}>
          <Stack gap="4">
            {rows.fields.map((row, index) => (
              <LicenceRowFields
                key={row.id}
                index={index}
                onRemove={rows.fields.length > 1 ? () => rows.remove(index) : undefined}
              />
            ))}
            <Button
              variant="outline"
              alignSelf="start"
              onClick={() => rows.append(EMPTY_ROW)}
              disabled={room <= 0}
            >
              <Plus aria-hidden />
              {t('licences.addRow')}
            </Button>
            {room <= 0 && (
              <Text color="fg.muted">{t('licences.limit', { max: MAX_LICENCES })}</Text>
            )}
            <HStack gap="3" wrap="wrap">
              <Button type="submit" colorPalette="brand" loading={uploading} disabled={busy}>
                {t('licences.continueWith')}
              </Button>
              <Button
                variant="outline"
                colorPalette="brand"
                onClick={() => finish('submitted')}
                loading={submit.isPending && !uploading}
                disabled={busy}
              >
                {t('licences.continueWithout')}
              </Button>
            </HStack>
          </Stack>
        </form>
      </FormProvider>
      <ConfirmDialog
        open={askBlank}
        title={t('licences.blankQuestion')}
        confirmLabel={t('licences.blankConfirm')}
        onCancel={() => setAskBlank(false)}
        onConfirm={() => {
          setAskBlank(false);
          finish('submitted');
        }}
      >
        {t('licences.blankExplanation')}
      </ConfirmDialog>
    </Stack>
  );
}

function ExistingLicences({
  professionalId,
  licences,
}: {
  professionalId: string;
  licences: Licence[];
}) {
  const { t } = useTranslation();
  const remove = useDeleteLicence();
  const [removing, setRemoving] = useState<Licence | null>(null);
  // The last licence they were approved with ends their live quotes: the dialog says so first.
  const preview = usePreviewDeleteLicence(removing?.id);
  const last = preview.data?.lastApprovedLicence ?? false;
  return (
    <Stack gap="3">
      <Text fontWeight="semibold">{t('licences.existing')}</Text>
      <LicenceTable
        caption={t('licences.existing')}
        licences={licences}
        action={(licence) => (
          <Button size="xs" variant="ghost" colorPalette="red" onClick={() => setRemoving(licence)}>
            {t('licences.remove', { label: licence.label })}
          </Button>
        )}
      />
      {remove.error && <FormAlert title={t('licences.removeFailed')} />}
      <ConfirmDialog
        open={removing !== null}
        title={t('licences.removeQuestion', { label: removing?.label ?? '' })}
        confirmLabel={last ? t('licences.removeLast') : t('common.delete')}
        destructive
        loading={remove.isPending}
        confirmDisabled={preview.isPending || preview.isError}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(
            { professionalId, licenceId: removing.id, endLiveQuotes: last },
            { onSettled: () => setRemoving(null) },
          )
        }
      >
        {preview.isError && <FormAlert title={t('licences.previewFailed')} />}
        {last && (
          <Text>{t('licences.lastWarning', { count: preview.data?.liveQuotesEnded ?? 0 })}</Text>
        )}
      </ConfirmDialog>
    </Stack>
  );
}
