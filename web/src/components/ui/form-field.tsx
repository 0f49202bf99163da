import { Field } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface FormFieldProps {
  label: string;
  /** The message shown under the control when its value is refused. */
  error?: string;
  helperText?: string;
  required?: boolean;
  children: ReactNode;
}

/**
 * A labelled form control with its error message (Chakra v3 `Field`). The message under the
 * control, error or help, is the field's description: the control's `aria-describedby` points
 * to it, and `aria-invalid` is set while there is an error.
 */
export function FormField({ label, error, helperText, required, children }: FormFieldProps) {
  const description = error ?? helperText;
  return (
    <Field.Root invalid={Boolean(error)} required={required}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {children}
      {description && (
        <Field.HelperText
          color={error ? 'fg.error' : undefined}
          data-error={error ? '' : undefined}
        >
          {description}
        </Field.HelperText>
      )}
    </Field.Root>
  );
}
