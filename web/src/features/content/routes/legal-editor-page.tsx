import { Button, HStack, Input, Stack, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { keepEdits } from '@/components/form/keep-edits';
import { useServerErrors } from '@/components/form/use-server-errors';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { StaleEtagAlert } from '../components/stale-etag-alert';
import { FormField } from '@/components/ui/form-field';
import { SelectInput } from '@/components/ui/select-input';
import { toaster } from '@/components/ui/toast';
import { LegalPageSchema, type GetLegalPageResponse } from '@/gen/repairs/content/v1/content_pb';
import { limitOf, maxLengthRule } from '@/lib/contract-limits';
import { type Language } from '@/lib/language';
import { toProtoLanguage } from '@/lib/proto-language';
import { readRpcError } from '@/lib/rpc-error';
import { LEGAL_KINDS, useLegalPage, type LegalKind } from '../api/get-legal-page';
import { useUpdateLegalPage } from '../api/update-legal-page';

interface LegalValues {
  title: string;
  body: string;
  /** The privacy page's person in charge; always empty on the terms. */
  personInCharge: string;
}

/** LegalPage's rules on its title and body. */
const TITLE = limitOf(LegalPageSchema, 'title');
const BODY = limitOf(LegalPageSchema, 'body');
const PERSON_IN_CHARGE = limitOf(LegalPageSchema, 'personInCharge');
const SERVER_FIELDS = {
  'page.title': 'title',
  'page.body': 'body',
  'page.person_in_charge': 'personInCharge',
} as const;

/** The form's values of a page as the server answered it. */
const valuesOf = (page: GetLegalPageResponse['page']): LegalValues => ({
  title: page?.title ?? '',
  body: page?.body ?? '',
  personInCharge: page?.personInCharge ?? '',
});

/**
 * /admin/legal-pages: the terms and conditions and the privacy page, each in English and
 * French, as a title and a plain text whose paragraphs are separated by a blank line; the
 * privacy page also names the person in charge of personal information.
 */
export function LegalEditorPage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<LegalKind>('terms');
  const [language, setLanguage] = useState<Language>('en');
  const query = useLegalPage(kind, language);
  return (
    <Stack gap="6" maxW="3xl">
      <PageTitle title={t('pages.adminLegalPages')} />
      <HStack gap="4" wrap="wrap" align="end">
        <FormField label={t('legalEditor.page')}>
          <SelectInput
            width="xs"
            options={[
              { value: 'terms', label: t('pages.terms') },
              { value: 'privacy', label: t('pages.privacy') },
            ]}
            value={kind}
            onChange={(event) => setKind(event.target.value as LegalKind)}
          />
        </FormField>
        <FormField label={t('legalEditor.language')}>
          <SelectInput
            width="2xs"
            options={[
              { value: 'en', label: t('languageSwitch.english') },
              { value: 'fr', label: t('languageSwitch.french') },
            ]}
            value={language}
            onChange={(event) => setLanguage(event.target.value as Language)}
          />
        </FormField>
      </HStack>
      {query.isPending && <RouteLoader />}
      {query.error ? <RpcErrorAlert error={query.error} /> : null}
      {query.data && (
        <LegalForm
          key={`${kind}-${language}`}
          kind={kind}
          language={language}
          loaded={query.data}
          reload={async () => (await query.refetch()).data}
        />
      )}
    </Stack>
  );
}

function LegalForm({
  kind,
  language,
  loaded,
  reload,
}: {
  kind: LegalKind;
  language: Language;
  loaded: GetLegalPageResponse;
  reload: () => Promise<GetLegalPageResponse | undefined>;
}) {
  const { t, i18n } = useTranslation();
  const update = useUpdateLegalPage();
  const [etag, setEtag] = useState(loaded.etag);
  const [conflict, setConflict] = useState(false);
  const form = useForm<LegalValues>({
    defaultValues: valuesOf(loaded.page),
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  const server = useServerErrors(form.setError, { fields: SERVER_FIELDS });

  const onSubmit = form.handleSubmit(async ({ title, body, personInCharge }) => {
    server.clear();
    setConflict(false);
    try {
      const saved = await update.mutateAsync({
        language: toProtoLanguage(language),
        page: {
          kind: LEGAL_KINDS[kind],
          title: title.trim(),
          body,
          personInCharge: kind === 'privacy' ? personInCharge.trim() : '',
        },
        etag,
      });
      setEtag(saved.etag);
      form.reset(valuesOf(saved.page));
      toaster.create({ type: 'success', title: t('pageEditor.saved') });
    } catch (failure) {
      if (readRpcError(failure).reason === 'ETAG_MISMATCH') setConflict(true);
      else server.report(failure);
    }
  });

  const loadLatest = async () => {
    const edited = (['title', 'body', 'personInCharge'] as const).filter(
      (field) => form.formState.dirtyFields[field],
    );
    const keep = keepEdits(form, edited);
    const latest = await reload();
    if (!latest) return;
    setEtag(latest.etag);
    keep(valuesOf(latest.page));
    setConflict(false);
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
      <Stack gap="5">
        {conflict && (
          <StaleEtagAlert
            title={t('pageEditor.conflict')}
            help={t('pageEditor.conflictHelp')}
            onLoadLatest={loadLatest}
          />
        )}
        {server.formError && <FormAlert title={server.formError} />}
        <FormField label={t('legalEditor.title')} error={errors.title?.message} required>
          <Input
            lang={language}
            {...register('title', {
              validate: (value) => value.trim() !== '' || t('legalEditor.titleRequired'),
              maxLength: maxLengthRule(i18n, TITLE),
            })}
          />
        </FormField>
        <FormField
          label={t('legalEditor.body')}
          helperText={t('legalEditor.bodyHelp')}
          error={errors.body?.message}
        >
          <Textarea
            lang={language}
            rows={16}
            {...register('body', {
              maxLength: maxLengthRule(i18n, BODY),
            })}
          />
        </FormField>
        {kind === 'privacy' && (
          <FormField
            label={t('legal.personInCharge')}
            helperText={t('legalEditor.personInChargeHelp')}
            error={errors.personInCharge?.message}
            required
          >
            <Textarea
              lang={language}
              rows={3}
              {...register('personInCharge', {
                validate: (value) => value.trim() !== '' || t('legalEditor.personInChargeRequired'),
                maxLength: maxLengthRule(i18n, PERSON_IN_CHARGE),
              })}
            />
          </FormField>
        )}
        <HStack gap="3">
          <Button type="submit" colorPalette="accent" loading={isSubmitting}>
            {t('pageEditor.save')}
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
