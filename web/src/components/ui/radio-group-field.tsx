import { Fieldset, RadioGroup, SimpleGrid, Skeleton } from '@chakra-ui/react';
import type { Ref } from 'react';
import { GroupLegend } from './group-legend';

export interface RadioOption {
  value: string;
  label: string;
}

interface RadioGroupFieldProps {
  legend: string;
  options: RadioOption[];
  value: string;
  onChange: (value: string) => void;
  error?: string;
  required?: boolean;
  /** Given to the first radio, so that a form can move the focus to the group. */
  inputRef?: Ref<HTMLInputElement>;
  columns?: { base: number; md: number };
  /**
   * While the options load: how many placeholders of a radio's size hold their place, so
   * that the form below does not jump when they arrive.
   */
  placeholders?: number;
}

/** One choice among a few, under a legend, with the group's error (a service, yes or no). */
export function RadioGroupField({
  legend,
  options,
  value,
  onChange,
  error,
  required,
  inputRef,
  columns = { base: 1, md: 2 },
  placeholders = 0,
}: RadioGroupFieldProps) {
  return (
    <Fieldset.Root invalid={Boolean(error)}>
      <GroupLegend legend={legend} required={required} />
      <RadioGroup.Root
        value={value}
        onValueChange={(details) => onChange(details.value ?? '')}
        colorPalette="brand"
      >
        <SimpleGrid columns={columns} gap="2">
          {options.map((option, index) => (
            <RadioGroup.Item key={option.value} value={option.value}>
              <RadioGroup.ItemHiddenInput ref={index === 0 ? inputRef : undefined} />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{option.label}</RadioGroup.ItemText>
            </RadioGroup.Item>
          ))}
          {options.length === 0 &&
            Array.from({ length: placeholders }, (_, index) => (
              <Skeleton key={index} h="5" w="12rem" maxW="full" />
            ))}
        </SimpleGrid>
      </RadioGroup.Root>
      {error && <Fieldset.ErrorText>{error}</Fieldset.ErrorText>}
    </Fieldset.Root>
  );
}
