import { Fieldset } from '@chakra-ui/react';

/** The legend of a group of checkboxes or radios, with the required mark when it is. */
export function GroupLegend({ legend, required }: { legend: string; required?: boolean }) {
  return (
    <Fieldset.Legend fontWeight="medium" mb="2">
      {legend}
      {required && (
        <span aria-hidden="true" style={{ color: 'var(--chakra-colors-fg-error)' }}>
          {' *'}
        </span>
      )}
    </Fieldset.Legend>
  );
}
