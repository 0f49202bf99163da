import { Alert, Button, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/page-title';
import { useServerErrors } from '@/components/form/use-server-errors';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { toaster } from '@/components/ui/toast';
import { SendContactMessageRequestSchema } from '@/gen/repairs/content/v1/content_pb';
import { limitOf, maxLengthRule } from '@/lib/contract-limits';
import { useSendContactMessage } from '../api/send-contact-message';

interface ContactForm {
  name: string;
  email: string;
  message: string;
}

/** The limits of SendContactMessageRequest. */
const NAME = limitOf(SendContactMessageRequestSchema, 'name');
const EMAIL = limitOf(SendContactMessageRequestSchema, 'email');
const MESSAGE = limitOf(SendContactMessageRequestSchema, 'message');
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** SendContactMessageRequest fields -> the form's. */
const SERVER_FIELDS = { name: 'name', email: 'email', message: 'message' } as const;

const notBlank = (value: string) => value.trim() !== '';

/** /contact: a message to the team, sent through ContentService.SendContactMessage. */
export function ContactPage() {
  const { t, i18n } = useTranslation();
  const send = useSendContactMessage();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ContactForm>({ defaultValues: { name: '', email: '', message: '' } });

  const server = useServerErrors(setError, { fields: SERVER_FIELDS });

  const onSubmit = handleSubmit((values) => {
    server.clear();
    send.mutate(
      { name: values.name.trim(), email: values.email.trim(), message: values.message.trim() },
      {
        onSuccess: () => {
          reset();
          toaster.create({ type: 'success', title: t('contact.sent') });
        },
        onError: server.report,
      },
    );
  });

  return (
    <Stack gap="6" maxW="2xl">
      <PageTitle title={t('pages.contact')} />
      <Text fontSize="lg">{t('contact.intro')}</Text>

      {send.isSuccess && (
        <Alert.Root status="success">
          <Alert.Indicator />
          <Alert.Title>{t('contact.sent')}</Alert.Title>
        </Alert.Root>
      )}
      {server.formError && <FormAlert title={t('contact.failed', { reason: server.formError })} />}

      <form noValidate onSubmit={onSubmit}>
        <Stack gap="5">
          <FormField label={t('contact.name')} error={errors.name?.message} required>
            <Input
              autoComplete="name"
              {...register('name', {
                validate: (value) => notBlank(value) || t('contact.errors.nameRequired'),
                maxLength: maxLengthRule(i18n, NAME),
              })}
            />
          </FormField>
          <FormField label={t('contact.email')} error={errors.email?.message} required>
            <Input
              type="email"
              autoComplete="email"
              {...register('email', {
                validate: (value) =>
                  !notBlank(value)
                    ? t('contact.errors.emailRequired')
                    : EMAIL_PATTERN.test(value.trim()) || t('contact.errors.emailInvalid'),
                maxLength: maxLengthRule(i18n, EMAIL),
              })}
            />
          </FormField>
          <FormField label={t('contact.message')} error={errors.message?.message} required>
            <Textarea
              rows={6}
              {...register('message', {
                validate: (value) => notBlank(value) || t('contact.errors.messageRequired'),
                maxLength: maxLengthRule(i18n, MESSAGE),
              })}
            />
          </FormField>
          <Button type="submit" colorPalette="brand" alignSelf="start" loading={send.isPending}>
            {t('contact.submit')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
