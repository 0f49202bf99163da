import { Button, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useServerErrors } from '@/components/form/use-server-errors';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { FormAlert } from '@/components/ui/form-alert';
import { AppLink } from '@/components/ui/links';
import { serviceName, useServices } from '@/features/content';
import type { Professional } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { formatPhone } from '@/lib/phone';
import { useLanguage } from '@/lib/use-language';
import { useUpdateProfessionalProfile } from '../api/update-professional-profile';
import { AddLicenceLink } from '../components/add-licence-link';
import { PendingChangeNotice } from '../components/pending-change';
import { PhotoField } from '../components/photo-field';
import {
  AddressSection,
  AvailabilitySection,
  BasicInfoSection,
  TaxSection,
  WorkSection,
} from '../components/profile-sections';
import { flashAfterSave, LICENCE_PAGE_PATH, type FlashState } from '../flash';
import { useProfessionalAccount } from '../professional-context';
import {
  PROFILE_REASON_FIELDS,
  PROFILE_SERVER_FIELDS,
  profileRequest,
  profileValues,
  type ProfileValues,
} from '../profile-values';

/**
 * /update-professional-profile and /professional-profile ('Update Your Profile'): the whole
 * profile, checked in the page, saved with AccountsService.UpdateProfessionalProfile; the
 * licence step follows, saying whether the change took effect or waits for review. Once
 * approved, the licence step is also offered on its own.
 */
export function ProfilePage() {
  const { t } = useTranslation();
  const { professional, status } = useProfessionalAccount();
  return (
    <Stack gap="6" maxW="4xl">
      <PageTitle title={t('professionalProfile.title')} />
      {professional ? (
        <ProfileForm professional={professional} approved={status === 'approved'} />
      ) : (
        <RouteLoader />
      )}
    </Stack>
  );
}

function ProfileForm({
  professional,
  approved,
}: {
  professional: Professional;
  approved: boolean;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useLocalizedNavigate();
  const services = useServices();
  const save = useUpdateProfessionalProfile();
  const form = useForm<ProfileValues>({
    defaultValues: profileValues(professional, language),
  });
  const server = useServerErrors(form.setError, {
    fields: PROFILE_SERVER_FIELDS,
    reasonFields: PROFILE_REASON_FIELDS,
  });

  const serviceOptions = (services.data?.services ?? []).map((service) => ({
    value: service.id,
    label: serviceName(service, language),
  }));

  const [invalid, setInvalid] = useState(false);

  const onSubmit = form.handleSubmit(
    (values) => {
      setInvalid(false);
      server.clear();
      save.mutate(profileRequest(professional.id, values, language), {
        onSuccess: ({ professional: saved }) => {
          const state: FlashState = { flash: flashAfterSave(saved, 'profile-updated') };
          void navigate(LICENCE_PAGE_PATH, { state });
        },
        onError: server.report,
      });
    },
    () => {
      setInvalid(true);
      server.clear();
    },
  );

  return (
    <Stack gap="6">
      <Text color="fg.muted">{t('professionalProfile.intro')}</Text>
      <PendingChangeNotice professional={professional} />
      {approved && <AddLicenceLink />}
      <PhotoField
        professionalId={professional.id}
        name={professional.name}
        photoUrl={professional.photoUrl}
      />
      <FormProvider {...form}>
        <form noValidate onSubmit={onSubmit}>
          <Stack gap="6">
            {invalid && <FormAlert title={t('professionalProfile.errors.fixFields')} />}
            {server.formError && <FormAlert title={server.formError} />}
            <BasicInfoSection phone={formatPhone(professional.phone)} />
            <AddressSection />
            <AvailabilitySection />
            <WorkSection services={serviceOptions} />
            <TaxSection />
            <AppLink to="/prof-forgot-password" color="brand.fg">
              {t('professionalProfile.changePassword')}
            </AppLink>
            <Button
              type="submit"
              colorPalette="brand"
              size="lg"
              alignSelf="start"
              loading={save.isPending}
            >
              {t('professionalProfile.save')}
            </Button>
          </Stack>
        </form>
      </FormProvider>
    </Stack>
  );
}
