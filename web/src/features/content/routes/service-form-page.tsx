import { Button, HStack, Input, SimpleGrid, Stack, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { keepEdits } from '@/components/form/keep-edits';
import { useServerErrors } from '@/components/form/use-server-errors';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { LinkButton } from '@/components/ui/links';
import { toaster } from '@/components/ui/toast';
import type { Service } from '@/gen/repairs/content/v1/content_pb';
import { fileBytes } from '@/lib/files';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { readRpcError } from '@/lib/rpc-error';
import { maxLengthRule } from '@/lib/contract-limits';
import { useCreateService } from '../api/create-service';
import { useService } from '../api/get-service';
import { useServicesForAdmin } from '../api/list-services';
import { useUpdateService } from '../api/update-service';
import { IconField } from '../components/icon-field';
import { StaleEtagAlert } from '../components/stale-etag-alert';
import { SERVICE_PATHS } from '../paths';
import {
  DESCRIPTION,
  iconRefusal,
  MASK_PATHS,
  NAME_MAX,
  SERVICE_FIELDS,
  serviceValues,
  takenNames,
  type ServiceValues,
} from '../service-form';

const SERVER_FIELDS = {
  'name.en': 'nameEn',
  'name.fr': 'nameFr',
  'description.en': 'descriptionEn',
  'description.fr': 'descriptionFr',
  icon: 'icon',
  icon_content_type: 'icon',
} as const;
/** An icon over the bound is refused before any field is read: it still belongs to the icon. */
const ICON_TOO_LARGE = { field: 'icon', messageKey: 'serviceAdmin.iconTooLarge' } as const;
const REASON_FIELDS = { FILE_TOO_LARGE: ICON_TOO_LARGE, REQUEST_TOO_LARGE: ICON_TOO_LARGE };

/** /admin/add-service: a new service at the end of the catalogue. */
export function AddServicePage() {
  const { t } = useTranslation();
  return (
    <Stack gap="6" maxW="3xl">
      <PageTitle title={t('pages.adminAddService')} />
      <ServiceForm />
    </Stack>
  );
}

/** /admin/edit-service/{id}: a service's names, descriptions and icon. */
export function EditServicePage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data, isPending, error, refetch } = useService(id);
  return (
    <Stack gap="6" maxW="3xl">
      <PageTitle title={t('pages.adminEditService')} />
      {isPending && <RouteLoader />}
      {error ? <RpcErrorAlert error={error} /> : null}
      {data?.service && (
        <ServiceForm
          key={data.service.id}
          service={data.service}
          reload={async () => (await refetch()).data?.service}
        />
      )}
    </Stack>
  );
}

/**
 * The names and descriptions in English and French and the icon. A new service is created
 * whole; an edit sends only what changed (its update mask) with the etag first read, so a
 * change someone else saved meanwhile is never overwritten: the form then offers to load it.
 */
function ServiceForm({
  service,
  reload,
}: {
  service?: Service;
  /** Reads the stored service again (after someone else changed it). */
  reload?: () => Promise<Service | undefined>;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useLocalizedNavigate();
  const create = useCreateService();
  const update = useUpdateService();
  const catalogue = useServicesForAdmin();
  // The version edited: only loading the latest one on purpose moves it on.
  const [editing, setEditing] = useState(service);
  const [conflict, setConflict] = useState(false);
  const form = useForm<ServiceValues>({ defaultValues: serviceValues(service) });
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, dirtyFields, isSubmitting },
  } = form;
  const server = useServerErrors(setError, { fields: SERVER_FIELDS, reasonFields: REASON_FIELDS });
  const edited = () => SERVICE_FIELDS.filter((field) => dirtyFields[field]);

  /** Shows SERVICE_NAME_TAKEN under the names the catalogue already has; false if none. */
  const placeTakenName = async (values: ServiceValues) => {
    const { data } = await catalogue.refetch();
    const taken = takenNames(values, data?.services ?? [], editing?.id);
    taken.forEach((field, index) =>
      setError(
        field,
        { type: 'server', message: t('errors.reasons.SERVICE_NAME_TAKEN') },
        { shouldFocus: index === 0 },
      ),
    );
    return taken.length > 0;
  };

  const onSubmit = handleSubmit(async (values) => {
    server.clear();
    setConflict(false);
    const name = { en: values.nameEn.trim(), fr: values.nameFr.trim() };
    const description = { en: values.descriptionEn.trim(), fr: values.descriptionFr.trim() };
    const icon = values.icon
      ? { iconContentType: values.icon.type, icon: await fileBytes(values.icon) }
      : { iconContentType: '', icon: new Uint8Array() };
    try {
      if (editing) {
        const paths = edited().map((field) => MASK_PATHS[field]);
        if (paths.length > 0) {
          await update.mutateAsync({
            id: editing.id,
            etag: editing.etag,
            name,
            description,
            ...icon,
            updateMask: { paths },
          });
        }
      } else {
        await create.mutateAsync({ name, description, ...icon });
      }
      toaster.create({
        type: 'success',
        title: t(editing ? 'serviceAdmin.saved' : 'serviceAdmin.created', { name: name.en }),
      });
      void navigate(SERVICE_PATHS.list);
    } catch (failure) {
      const { reason } = readRpcError(failure);
      if (reason === 'ETAG_MISMATCH') setConflict(true);
      else if (reason !== 'SERVICE_NAME_TAKEN' || !(await placeTakenName(values))) {
        server.report(failure);
      }
    }
  });

  const loadLatest = async () => {
    const keep = keepEdits(form, edited());
    const latest = await reload?.();
    if (!latest) return;
    setEditing(latest);
    keep(serviceValues(latest));
    setConflict(false);
  };

  const nameRules = (messageKey: 'serviceAdmin.errors.nameEn' | 'serviceAdmin.errors.nameFr') => ({
    validate: (value: string) => value.trim() !== '' || t(messageKey),
    maxLength: {
      value: NAME_MAX,
      message: t('serviceAdmin.errors.nameTooLong', { max: NAME_MAX }),
    },
  });
  const descriptionRules = { maxLength: maxLengthRule(i18n, DESCRIPTION) };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
      <Stack gap="5">
        {conflict && (
          <StaleEtagAlert
            title={t('serviceAdmin.conflict')}
            help={t('serviceAdmin.conflictHelp')}
            onLoadLatest={loadLatest}
          />
        )}
        {server.formError && <FormAlert title={server.formError} />}
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
          <FormField label={t('serviceAdmin.nameEn')} error={errors.nameEn?.message} required>
            <Input lang="en" {...register('nameEn', nameRules('serviceAdmin.errors.nameEn'))} />
          </FormField>
          <FormField label={t('serviceAdmin.nameFr')} error={errors.nameFr?.message} required>
            <Input lang="fr" {...register('nameFr', nameRules('serviceAdmin.errors.nameFr'))} />
          </FormField>
          <FormField label={t('serviceAdmin.descriptionEn')} error={errors.descriptionEn?.message}>
            <Textarea lang="en" rows={4} {...register('descriptionEn', descriptionRules)} />
          </FormField>
          <FormField label={t('serviceAdmin.descriptionFr')} error={errors.descriptionFr?.message}>
            <Textarea lang="fr" rows={4} {...register('descriptionFr', descriptionRules)} />
          </FormField>
        </SimpleGrid>
        <Controller
          control={control}
          name="icon"
          rules={{
            validate: (file) => {
              const refused = file && iconRefusal(file);
              return refused ? t(refused) : true;
            },
          }}
          render={({ field, fieldState }) => (
            <IconField
              file={field.value}
              error={fieldState.error?.message}
              currentUrl={editing?.iconUrl}
              inputRef={field.ref}
              onChange={(file) => {
                field.onChange(file);
                // Said at once, not only on saving.
                void form.trigger('icon');
              }}
            />
          )}
        />
        <HStack gap="3">
          <Button type="submit" colorPalette="accent" loading={isSubmitting}>
            {t(editing ? 'serviceAdmin.save' : 'serviceAdmin.create')}
          </Button>
          <LinkButton to={SERVICE_PATHS.list} variant="outline">
            {t('common.cancel')}
          </LinkButton>
        </HStack>
      </Stack>
    </form>
  );
}
