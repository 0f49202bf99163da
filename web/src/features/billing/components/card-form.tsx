import { Button, Code, Input, List, Stack, Text } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useServerErrors } from '@/components/form/use-server-errors';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { notBlank } from '@/lib/validation';
import { TEST_CARDS, isCardNumber } from '../test-cards';
import { TestModeBadge } from './test-mode-badge';

const SERVER_FIELDS = { payment_method: 'cardNumber' } as const;

interface CardFormProps {
  submitLabel: string;
  busy: boolean;
  /** Pays with the card number; a rejection is shown in the form. */
  onPay: (cardNumber: string) => Promise<unknown>;
}

/**
 * The offline test gateway's card form, labelled TEST MODE, with Stripe's test card numbers
 * as help. The gateway takes the number as typed (spaces and dashes ignored).
 */
export function CardForm({ submitLabel, busy, onPay }: CardFormProps) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<{ cardNumber: string }>({ defaultValues: { cardNumber: '' } });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });
  const submit = handleSubmit(async ({ cardNumber }) => {
    server.clear();
    await onPay(cardNumber.trim()).catch(server.report);
  });

  return (
    <Stack gap="4" borderWidth="1px" borderRadius="lg" p="5" bg="bg">
      <TestModeBadge />
      <Text>{t('billing.testModeNote')}</Text>
      <List.Root gap="1" ps="5">
        {TEST_CARDS.map((card) => (
          <List.Item key={card.number}>
            <Code>{card.number}</Code> {t(card.behaviour)}
          </List.Item>
        ))}
      </List.Root>
      {server.formError && <FormAlert title={server.formError} />}
      <form noValidate onSubmit={submit}>
        <Stack gap="4" align="flex-start">
          <FormField label={t('billing.cardNumber')} error={errors.cardNumber?.message} required>
            <Input
              inputMode="numeric"
              autoComplete="cc-number"
              maxW="sm"
              {...register('cardNumber', {
                validate: (value) =>
                  !notBlank(value)
                    ? t('billing.errors.cardRequired')
                    : isCardNumber(value) || t('billing.errors.cardInvalid'),
              })}
            />
          </FormField>
          <Button type="submit" colorPalette="accent" loading={busy}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
