import { Checkbox, Switch } from '@chakra-ui/react';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';

interface ToggleFieldProps<T extends FieldValues> {
  control: Control<T>;
  /** A boolean field of the form. */
  name: Path<T>;
  label: string;
  /** A switch (settings) or a checkbox (a choice made while filling a form). */
  kind?: 'switch' | 'checkbox';
}

/** A yes/no form field (SMS updates), bound to react-hook-form. */
export function ToggleField<T extends FieldValues>({
  control,
  name,
  label,
  kind = 'switch',
}: ToggleFieldProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => {
        const root = {
          checked: Boolean(field.value),
          onCheckedChange: (details: { checked: boolean | 'indeterminate' }) =>
            field.onChange(details.checked === true),
          colorPalette: 'brand',
        };
        const input = { ref: field.ref, onBlur: field.onBlur };
        return kind === 'switch' ? (
          <Switch.Root {...root}>
            <Switch.HiddenInput {...input} />
            <Switch.Control>
              <Switch.Thumb />
            </Switch.Control>
            <Switch.Label>{label}</Switch.Label>
          </Switch.Root>
        ) : (
          <Checkbox.Root {...root}>
            <Checkbox.HiddenInput {...input} />
            <Checkbox.Control />
            <Checkbox.Label>{label}</Checkbox.Label>
          </Checkbox.Root>
        );
      }}
    />
  );
}
