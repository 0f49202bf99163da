import { Button, Input, Stack } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { ToggleField } from '@/components/form/toggle-field';
import { useFieldRules } from '@/components/form/use-field-rules';
import { useServerErrors } from '@/components/form/use-server-errors';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { AppLink } from '@/components/ui/links';
import { SelectInput } from '@/components/ui/select-input';
import { BlockedProfessionals } from '@/features/conversations';
import { SmsUpdates, type Customer } from '@/gen/repairs/accounts/v1/accounts_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { formatPhone } from '@/lib/phone';
import { useCustomer } from '../api/get-customer';
import { useUpdateCustomer } from '../api/update-customer';
import { useSignedInId } from '@/lib/use-signed-in-id';
import { FORGOT_PASSWORD_PATHS } from '../roles';
import { DeviceAlertsSwitch } from '../components/device-alerts-switch';
import { NotificationPreferences } from '../components/notification-preferences';
import { DataExportSection } from '../components/data-export-section';
import { CloseAccountSection } from '../components/close-account-section';

interface SettingsValues {
  name: string;
  email: string;
  language: 'en' | 'fr';
  smsUpdates: boolean;
}

const SERVER_FIELDS = { name: 'name', email: 'email' } as const;
const REASON_FIELDS = { EMAIL_TAKEN: 'email' } as const;

const valuesOf = (customer: Customer): SettingsValues => ({
  name: customer.name,
  email: customer.email,
  language: customer.language === Language.FR ? 'fr' : 'en',
  smsUpdates: customer.smsUpdates === SmsUpdates.YES,
});

/**
 * /user-account-setting (My Profile): the customer's own details, their device's alerts, what
 * reaches them (by email, text and device alerts), the professionals they blocked (with
 * Unblock), a copy of their data, and closing their account.
 */
export function AccountSettingsPage() {
  const { t } = useTranslation();
  const id = useSignedInId('customer');
  const { data, error, isPending } = useCustomer(id);
  return (
    <Stack gap="6" maxW="xl">
      <PageTitle title={t('pages.userAccountSetting')} />
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {data?.customer && <SettingsForm customer={data.customer} />}
      <DeviceAlertsSwitch role="customer" />
      <NotificationPreferences />
      <BlockedProfessionals />
      <DataExportSection />
      <CloseAccountSection role="customer" />
    </Stack>
  );
}

function SettingsForm({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const navigate = useLocalizedNavigate();
  const rules = useFieldRules();
  const update = useUpdateCustomer();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<SettingsValues>({ defaultValues: valuesOf(customer) });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS, reasonFields: REASON_FIELDS });

  const onSubmit = handleSubmit((values) => {
    server.clear();
    update.mutate(
      {
        id: customer.id,
        name: values.name.trim(),
        email: values.email.trim(),
        language: values.language === 'fr' ? Language.FR : Language.EN,
        smsUpdates: values.smsUpdates ? SmsUpdates.YES : SmsUpdates.NO,
      },
      { onSuccess: () => void navigate('/user-profile-updated'), onError: server.report },
    );
  });

  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="5">
        {server.formError && <FormAlert title={server.formError} />}
        <FormField label={t('forms.email')} error={errors.email?.message} required>
          <Input type="email" autoComplete="email" {...register('email', rules.email)} />
        </FormField>
        <FormField label={t('forms.name')} error={errors.name?.message} required>
          <Input autoComplete="name" {...register('name', rules.name)} />
        </FormField>
        {customer.phone && (
          <FormField label={t('forms.phone')} helperText={t('account.phoneHelp')}>
            <Input value={formatPhone(customer.phone)} readOnly />
          </FormField>
        )}
        <FormField label={t('account.language')}>
          <SelectInput
            options={[
              { value: 'en', label: t('languageSwitch.english') },
              { value: 'fr', label: t('languageSwitch.french') },
            ]}
            {...register('language')}
          />
        </FormField>
        <ToggleField control={control} name="smsUpdates" label={t('account.smsUpdates')} />
        <AppLink to={FORGOT_PASSWORD_PATHS.customer} color="brand.fg">
          {t('account.changePassword')}
        </AppLink>
        <Button type="submit" colorPalette="brand" alignSelf="start" loading={update.isPending}>
          {t('account.update')}
        </Button>
      </Stack>
    </form>
  );
}
