import { Button, Input, Stack } from '@chakra-ui/react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFieldRules } from '@/components/form/use-field-rules';
import { useServerErrors } from '@/components/form/use-server-errors';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { toProtoLanguage } from '@/lib/proto-language';
import { SIGN_IN_PATHS } from '@/lib/session';
import { useLanguage } from '@/lib/use-language';
import { useSignUp } from '../api/sign-up';
import { AuthCard } from '../components/auth-card';
import { AuthLinks, type AuthLink } from '../components/auth-links';
import { CredentialsFields, type Credentials } from '../components/credentials-fields';
import { SocialSignIn } from '../components/social-sign-in';
import { PROTO_ROLES, REGISTER_PATHS, type MemberRole } from '../roles';
import { useStartSession } from '../sign-in';

interface RegisterValues extends Credentials {
  name: string;
}

const SERVER_FIELDS = { name: 'name', email: 'email', password: 'password' } as const;
const REASON_FIELDS = { EMAIL_TAKEN: 'email' } as const;

const LINKS: Record<MemberRole, AuthLink[]> = {
  customer: [
    { promptKey: 'auth.haveAccount', labelKey: 'auth.logInLink', path: SIGN_IN_PATHS.customer },
    {
      promptKey: 'auth.areYouProfessional',
      labelKey: 'auth.registerAsProfessionalLink',
      path: REGISTER_PATHS.professional,
    },
    {
      promptKey: 'auth.professionalAccount',
      labelKey: 'auth.professionalLogInLink',
      path: SIGN_IN_PATHS.professional,
    },
  ],
  professional: [
    {
      promptKey: 'auth.haveAccount',
      labelKey: 'auth.logInLink',
      path: SIGN_IN_PATHS.professional,
    },
    {
      promptKey: 'auth.needRepairs',
      labelKey: 'auth.customerRegisterLink',
      path: REGISTER_PATHS.customer,
    },
  ],
};

/**
 * /register, /fr/register, /register-as-professional, /fr/register-as-professional:
 * AccountsService.SignUp in the page's language, then the phone step. Customers may also
 * use Google, and on the French page Facebook, when the server has them configured.
 */
export function RegisterPage({ role }: { role: MemberRole }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const rules = useFieldRules();
  const signUp = useSignUp();
  const startSession = useStartSession();
  const form = useForm<RegisterValues>({ defaultValues: { name: '', email: '', password: '' } });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = form;
  const server = useServerErrors(setError, { fields: SERVER_FIELDS, reasonFields: REASON_FIELDS });

  const onSubmit = handleSubmit((values) => {
    server.clear();
    signUp.mutate(
      {
        role: PROTO_ROLES[role],
        name: values.name.trim(),
        email: values.email.trim(),
        password: values.password,
        language: toProtoLanguage(language),
      },
      {
        onSuccess: ({ session, account }) => startSession(session, account, true),
        onError: server.report,
      },
    );
  });

  return (
    <AuthCard
      title={t(role === 'customer' ? 'pages.register' : 'pages.registerAsProfessional')}
      intro={t(role === 'customer' ? 'auth.registerIntro' : 'auth.registerProfessionalIntro')}
      footer={<AuthLinks links={LINKS[role]} />}
    >
      {server.formError && <FormAlert title={server.formError} />}
      <FormProvider {...form}>
        <form noValidate onSubmit={onSubmit}>
          <Stack gap="4">
            <FormField label={t('forms.name')} error={errors.name?.message} required>
              <Input autoComplete="name" {...register('name', rules.name)} />
            </FormField>
            <CredentialsFields newPassword />
            <Button type="submit" colorPalette="brand" loading={signUp.isPending}>
              {t('auth.signUp')}
            </Button>
          </Stack>
        </form>
      </FormProvider>
      {role === 'customer' && <SocialSignIn facebook={language === 'fr'} />}
    </AuthCard>
  );
}
