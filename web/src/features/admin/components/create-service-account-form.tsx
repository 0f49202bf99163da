import { Button, Input, Stack } from '@chakra-ui/react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useServerErrors } from '@/components/form/use-server-errors';
import { CheckboxGroupField } from '@/components/ui/checkbox-group-field';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import {
  CreateServiceAccountRequestSchema,
  type CreateServiceAccountResponse,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { fitsMaxLen, limitOf } from '@/lib/contract-limits';
import { notBlank } from '@/lib/validation';
import { useCreateServiceAccount } from '../api/create-service-account';
import { SCOPES, scopeKey } from '../service-scopes';

interface Values {
  name: string;
  scopes: string[];
}

/** CreateServiceAccountRequest.name's rules. */
const NAME = limitOf(CreateServiceAccountRequestSchema, 'name');
const SERVER_FIELDS = { name: 'name', scopes: 'scopes' } as const;

/** A new service account's name and scopes (AccountsService.CreateServiceAccount). */
export function CreateServiceAccountForm({
  onCreated,
}: {
  onCreated: (made: CreateServiceAccountResponse) => void;
}) {
  const { t, i18n } = useTranslation();
  const create = useCreateServiceAccount();
  const {
    register,
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<Values>({ defaultValues: { name: '', scopes: [] } });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });

  const onSubmit = handleSubmit(({ name, scopes }) => {
    server.clear();
    create.mutate(
      { name: name.trim(), scopes },
      {
        onSuccess: (made) => {
          reset();
          onCreated(made);
        },
        onError: server.report,
      },
    );
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-label={t('serviceAccounts.create')}>
      <Stack gap="4" maxW="2xl">
        {server.formError && <FormAlert title={server.formError} />}
        <FormField label={t('serviceAccounts.name')} error={errors.name?.message} required>
          <Input
            autoComplete="off"
            {...register('name', {
              validate: (value) =>
                !notBlank(value)
                  ? t('serviceAccounts.errors.nameRequired')
                  : fitsMaxLen(i18n, NAME, value),
            })}
          />
        </FormField>
        <Controller
          control={control}
          name="scopes"
          rules={{
            validate: (value) => value.length > 0 || t('serviceAccounts.errors.scopesRequired'),
          }}
          render={({ field }) => (
            <CheckboxGroupField
              legend={t('serviceAccounts.scopes')}
              helperText={t('serviceAccounts.scopesHelp')}
              options={SCOPES.map((scope) => ({ value: scope, label: t(scopeKey(scope)!) }))}
              value={field.value}
              onChange={field.onChange}
              inputRef={field.ref}
              error={errors.scopes?.message}
              required
              columns={{ base: 1, md: 1 }}
            />
          )}
        />
        <Button
          type="submit"
          alignSelf="flex-start"
          colorPalette="accent"
          loading={create.isPending}
        >
          {t('serviceAccounts.create')}
        </Button>
      </Stack>
    </form>
  );
}
