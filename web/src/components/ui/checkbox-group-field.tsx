import { Checkbox, CheckboxGroup, Fieldset, SimpleGrid } from '@chakra-ui/react';
import type { Ref } from 'react';
import { GroupLegend } from './group-legend';

export interface CheckboxOption {
  value: string;
  label: string;
}

interface CheckboxGroupFieldProps {
  legend: string;
  options: CheckboxOption[];
  value: string[];
  onChange: (value: string[]) => void;
  error?: string;
  helperText?: string;
  required?: boolean;
  /** Given to the first checkbox, so that a form can move the focus to the group. */
  inputRef?: Ref<HTMLInputElement>;
  columns?: { base: number; md: number };
}

/** A group of checkboxes under a legend, with the group's error (days, specialisations). */
export function CheckboxGroupField({
  legend,
  options,
  value,
  onChange,
  error,
  helperText,
  required,
  inputRef,
  columns = { base: 1, md: 2 },
}: CheckboxGroupFieldProps) {
  return (
    <Fieldset.Root invalid={Boolean(error)}>
      <GroupLegend legend={legend} required={required} />
      {helperText && <Fieldset.HelperText>{helperText}</Fieldset.HelperText>}
      <CheckboxGroup value={value} onValueChange={onChange} invalid={Boolean(error)}>
        <SimpleGrid columns={columns} gap="2">
          {options.map((option, index) => (
            <Checkbox.Root key={option.value} value={option.value} colorPalette="brand">
              <Checkbox.HiddenInput ref={index === 0 ? inputRef : undefined} />
              <Checkbox.Control />
              <Checkbox.Label>{option.label}</Checkbox.Label>
            </Checkbox.Root>
          ))}
        </SimpleGrid>
      </CheckboxGroup>
      {error && <Fieldset.ErrorText>{error}</Fieldset.ErrorText>}
    </Fieldset.Root>
  );
}
