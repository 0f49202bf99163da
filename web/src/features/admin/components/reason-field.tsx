import { Textarea } from '@chakra-ui/react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';

/** Why an admin decided against a professional, which they will read (a denial, a refusal). */
export function ReasonField({
  label,
  helperText,
  error,
  registration,
  rows = 5,
}: {
  label: string;
  helperText: string;
  error?: string;
  registration: UseFormRegisterReturn;
  rows?: number;
}) {
  return (
    <FormField label={label} helperText={helperText} error={error} required>
      <Textarea rows={rows} {...registration} />
    </FormField>
  );
}
