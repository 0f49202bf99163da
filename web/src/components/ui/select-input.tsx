import { NativeSelect } from '@chakra-ui/react';
import type { ComponentProps } from 'react';

export interface SelectOption {
  value: string;
  label: string;
}

type SelectInputProps = ComponentProps<typeof NativeSelect.Field> & {
  options: SelectOption[];
  /** A first, empty choice ("Choose your experience"). */
  placeholder?: string;
  /** The width of the control (the whole row when left out). */
  width?: ComponentProps<typeof NativeSelect.Root>['width'];
};

/** A native select with its options (accessible everywhere, the phone's own picker on mobile). */
export function SelectInput({ options, placeholder, width, ...field }: SelectInputProps) {
  return (
    <NativeSelect.Root width={width}>
      <NativeSelect.Field {...field}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
