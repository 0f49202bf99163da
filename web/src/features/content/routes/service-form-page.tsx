import { Button, HStack, Input, SimpleGrid, Stack, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
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
import { useCreateService } from '../api/create-service';
import { useService } from '../api/get-service';
import { useUpdateService } from '../api/update-service';
import { IconField } from '../components/icon-field';
import { SERVICE_PATHS } from '../paths';
import { DESCRIPTION_MAX } from '../page-editor/sections';

interface ServiceValues {
  nameEn: string;
  nameFr: string;
  descriptionEn: string;
  descriptionFr: string;
}

const NAME_MAX = 100;
/** Form field -> the update mask path it changes. */
const MASK_PATHS: Record<keyof ServiceValues, string> = {
  nameEn: 'name.en',
  nameFr: 'name.fr',
  descriptionEn: 'description.en',
  descriptionFr: 'description.fr',
};
const SERVER_FIELDS = {
  'name.en': 'nameEn',
  'name.fr': 'nameFr',
  'description.en': 'descriptionEn',
  'description.fr': 'descriptionFr',
} as const;
const REASON_FIELDS = { SERVICE_NAME_TAKEN: 'nameEn' } as const;

const valuesOf = (service?: Service): ServiceValues => ({
  nameEn: service?.name?.en ?? '',
  nameFr: service?.name?.fr ?? '',
  descriptionEn: service?.description?.en ?? '',
  descriptionFr: service?.description?.fr ?? '',
});

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
  const { data, isPending, error } = useService(id);
  return (
    <Stack gap="6" maxW="3xl">
      <PageTitle title={t('pages.adminEditService')} />
      {isPending && <RouteLoader />}
      {error ? <RpcErrorAlert error={error} /> : null}
      {data?.service && <ServiceForm key={data.service.etag} service={data.service} />}
    </Stack>
  );
}

/**
 * The names and descriptions in English and French and the icon. A new service is created
 * whole; an edit sends only what changed (its update mask) with the etag it read.
 */
function ServiceForm({ service }: { service?: Service }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateService();
  const update = useUpdateService();
  const [icon, setIcon] = useState<File | null>(null);
  const [iconProblem, setIconProblem] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, dirtyFields, isSubmitting },
  } = useForm<ServiceValues>({ defaultValues: valuesOf(service) });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS, reasonFields: REASON_FIELDS });

  const onSubmit = handleSubmit(async (values) => {
    server.clear();
    if (iconProblem) return;
    const name = { en: values.nameEn.trim(), fr: values.nameFr.trim() };
    const description = { en: values.descriptionEn.trim(), fr: values.descriptionFr.trim() };
    const iconFields = icon
      ? { iconContentType: icon.type, icon: await fileBytes(icon) }
      : { iconContentType: '', icon: new Uint8Array() };
    try {
      if (service) {
        const paths = (Object.keys(MASK_PATHS) as (keyof ServiceValues)[])
          .filter((field) => dirtyFields[field])
          .map((field) => MASK_PATHS[field]);
        if (icon) paths.push('icon');
        if (paths.length > 0) {
          await update.mutateAsync({
            id: service.id,
            etag: service.etag,
            name,
            description,
            ...iconFields,
            updateMask: { paths },
          });
        }
      } else {
        await create.mutateAsync({ name, description, ...iconFields });
      }
      toaster.create({
        type: 'success',
        title: t(service ? 'serviceAdmin.saved' : 'serviceAdmin.created', { name: name.en }),
      });
      void navigate(SERVICE_PATHS.list);
    } catch (failure) {
      const problem = server.report(failure);
      if (problem.violations.some((violation) => violation.field.startsWith('icon'))) {
        setIconProblem(problem.violations.find((v) => v.field.startsWith('icon'))!.description);
      }
    }
  });

  const nameRules = (messageKey: 'serviceAdmin.errors.nameEn' | 'serviceAdmin.errors.nameFr') => ({
    validate: (value: string) => value.trim() !== '' || t(messageKey),
    maxLength: {
      value: NAME_MAX,
      message: t('serviceAdmin.errors.nameTooLong', { max: NAME_MAX }),
    },
  });
  const descriptionRules = {
    maxLength: {
      value: DESCRIPTION_MAX,
      message: t('serviceAdmin.errors.descriptionTooLong', { max: DESCRIPTION_MAX }),
    },
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
      <Stack gap="5">
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
        <IconField
          file={icon}
          problem={iconProblem}
          currentUrl={service?.iconUrl}
          onChange={(file, problem) => {
            setIcon(file);
            setIconProblem(problem);
          }}
        />
        <HStack gap="3">
          <Button type="submit" colorPalette="accent" loading={isSubmitting}>
            {t(service ? 'serviceAdmin.save' : 'serviceAdmin.create')}
          </Button>
          <LinkButton to={SERVICE_PATHS.list} variant="outline">
            {t('common.cancel')}
          </LinkButton>
        </HStack>
      </Stack>
    </form>
  );
}
