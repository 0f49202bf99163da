import { Textarea, type TextareaProps } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { formatFigure } from '@/lib/contract-limits';
import { FormField } from './form-field';

interface CountedTextareaFieldProps extends TextareaProps {
  label: string;
  /** The message shown under the control when its value is refused. */
  error?: string;
  required?: boolean;
  /** How many characters are written. */
  count: number;
  /** The contract's bound on the text: the control stops there, the help counts up to it. */
  limit: number;
}

/**
 * A labelled text area whose help counts the characters written against the contract's bound
 * ("12 / 2,000 characters"), or says what is wrong. The rest of the props go to the text area
 * (its value and onChange, or a form library's registration with its ref).
 */
export function CountedTextareaField({
  label,
  error,
  required,
  count,
  limit,
  ...textarea
}: CountedTextareaFieldProps) {
  const { t, i18n } = useTranslation();
  return (
    <FormField
      label={label}
      error={error}
      required={required}
      helperText={t('requests.descriptionCount', { count, max: formatFigure(i18n, limit) })}
    >
      <Textarea maxLength={limit} {...textarea} />
    </FormField>
  );
}
