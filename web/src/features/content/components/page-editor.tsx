import { Box, Button, HStack, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import type { DescMessage } from '@bufbuild/protobuf';
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { useMemo, useState, type ReactNode } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { keepEdits } from '@/components/form/keep-edits';
import { useServerErrors } from '@/components/form/use-server-errors';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { StaleEtagAlert } from './stale-etag-alert';
import { FormField } from '@/components/ui/form-field';
import { FormSection } from '@/components/ui/form-section';
import { toaster } from '@/components/ui/toast';
import { limitAt, maxLengthRule } from '@/lib/contract-limits';
import { createI18n } from '@/lib/i18n';
import type { Language } from '@/lib/language';
import { readRpcError } from '@/lib/rpc-error';
import { useDateTimeFormat } from '@/lib/use-date-format';
import type { EditorSection } from '../page-editor/sections';
import { dirtyPaths, type PageValues } from '../page-editor/values';

/** A page's texts as read or saved: the form's values and the etag to send back. */
export interface LoadedPage {
  values: PageValues;
  etag: string;
  updateTime?: Timestamp;
}

export interface PageEditorProps<Id extends string> {
  title: string;
  /** The language of the page edited (not necessarily the admin's). */
  language: Language;
  /** The page's message (HomePage, ProfessionalPage), whose rules bound each text. */
  schema: DescMessage;
  sections: EditorSection<Id>[];
  loaded: LoadedPage | undefined;
  isPending: boolean;
  error: unknown;
  /** Reads the stored page again (after someone else changed it). */
  reload: () => Promise<LoadedPage | undefined>;
  /** Saves the fields at `paths` of `values`, refused while `etag` is not the stored one. */
  save: (values: PageValues, paths: string[], etag: string) => Promise<LoadedPage>;
  /** The landing page's section as the values would show it. */
  preview: (section: Id, values: PageValues) => ReactNode;
}

/**
 * An editor of a landing page's texts in one language: every field of the page, section by
 * section, each with a live preview of that section of the landing page in the page's
 * language. Only the changed fields are saved, with the etag read: when someone else saved in
 * between, the server refuses and the editor says so and offers to load their version while
 * keeping what was typed.
 */
export function PageEditor<Id extends string>(props: PageEditorProps<Id>) {
  const { loaded, isPending, error, title } = props;
  return (
    <Stack gap="6">
      <PageTitle title={title} />
      {isPending && <RouteLoader />}
      {error ? <RpcErrorAlert error={error} /> : null}
      {loaded && <EditorForm {...props} loaded={loaded} />}
    </Stack>
  );
}

function EditorForm<Id extends string>({
  language,
  schema,
  sections,
  loaded,
  reload,
  save,
  preview,
}: PageEditorProps<Id> & { loaded: LoadedPage }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const form = useForm<PageValues>({ defaultValues: loaded.values });
  const [etag, setEtag] = useState(loaded.etag);
  const [updateTime, setUpdateTime] = useState(loaded.updateTime);
  const [conflict, setConflict] = useState(false);
  const serverFields = useMemo(
    () =>
      Object.fromEntries(
        sections.flatMap((section) => section.fields).map(({ path }) => [`page.${path}`, path]),
      ),
    [sections],
  );
  const server = useServerErrors(form.setError, { fields: serverFields });
  const values = useWatch({ control: form.control }) as PageValues;

  const onSubmit = form.handleSubmit(async (submitted) => {
    const paths = dirtyPaths(form.formState.dirtyFields);
    server.clear();
    setConflict(false);
    if (paths.length === 0) {
      toaster.create({ type: 'info', title: t('pageEditor.nothingChanged') });
      return;
    }
    try {
      const saved = await save(submitted, paths, etag);
      setEtag(saved.etag);
      setUpdateTime(saved.updateTime);
      form.reset(saved.values);
      toaster.create({ type: 'success', title: t('pageEditor.saved') });
    } catch (failure) {
      if (readRpcError(failure).reason === 'ETAG_MISMATCH') setConflict(true);
      else server.report(failure);
    }
  });

  const loadLatest = async () => {
    const keep = keepEdits(form, dirtyPaths(form.formState.dirtyFields));
    const latest = await reload();
    if (!latest) return;
    setEtag(latest.etag);
    setUpdateTime(latest.updateTime);
    keep(latest.values);
    setConflict(false);
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
      <Stack gap="6">
        <Text color="fg.muted">
          {updateTime
            ? t('pageEditor.lastChanged', { time: formatTime(updateTime) })
            : t('pageEditor.neverChanged')}{' '}
          {t('pageEditor.emptyMeansDefault')}
        </Text>
        {conflict && (
          <StaleEtagAlert
            title={t('pageEditor.conflict')}
            help={t('pageEditor.conflictHelp')}
            onLoadLatest={loadLatest}
          />
        )}
        {server.formError && <FormAlert title={server.formError} />}
        {sections.map((section) => (
          <FormSection key={section.id} title={t(section.titleKey)}>
            <SectionFields schema={schema} section={section} form={form} />
            <SectionPreview language={language}>{preview(section.id, values)}</SectionPreview>
          </FormSection>
        ))}
        <HStack
          position="sticky"
          bottom="0"
          py="3"
          bg="bg"
          borderTopWidth="1px"
          gap="3"
          wrap="wrap"
          zIndex="docked"
        >
          <Button type="submit" colorPalette="accent" loading={form.formState.isSubmitting}>
            {t('pageEditor.save')}
          </Button>
          <Button
            variant="outline"
            disabled={!form.formState.isDirty}
            onClick={() => {
              form.reset();
              server.clear();
            }}
          >
            {t('pageEditor.discard')}
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}

function SectionFields({
  schema,
  section,
  form,
}: {
  schema: DescMessage;
  section: EditorSection;
  form: UseFormReturn<PageValues>;
}) {
  const { t, i18n } = useTranslation();
  const errorOf = (path: string) => {
    const [head, tail] = path.split('.') as [string, string | undefined];
    const error = form.formState.errors[head];
    if (tail === undefined) return error?.message as string | undefined;
    return (error as Record<string, { message?: string }> | undefined)?.[tail]?.message;
  };
  return (
    <Stack gap="4">
      {section.fields.map((field) => {
        const registration = form.register(field.path, {
          maxLength: maxLengthRule(i18n, limitAt(schema, field.path)),
        });
        return (
          <FormField
            key={field.path}
            label={t(field.labelKey)}
            error={errorOf(field.path)}
            helperText={field.path}
          >
            {field.long ? <Textarea rows={3} {...registration} /> : <Input {...registration} />}
          </FormField>
        );
      })}
    </Stack>
  );
}

/**
 * The landing page's section as it would look, in the page's own language: not interactive
 * (its links would leave the editor) and so left out of the keyboard order.
 */
function SectionPreview({ language, children }: { language: Language; children: ReactNode }) {
  const { t } = useTranslation();
  const i18n = useMemo(() => createI18n(language, document.createElement('div')), [language]);
  return (
    <Stack gap="2">
      <Text fontWeight="semibold" color="fg.muted">
        {t('pageEditor.preview')}
      </Text>
      <Box
        lang={language}
        inert
        borderWidth="1px"
        borderRadius="md"
        overflow="hidden"
        data-testid="section-preview"
      >
        <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
      </Box>
    </Stack>
  );
}
