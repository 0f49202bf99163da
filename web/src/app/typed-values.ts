type Field = HTMLInputElement | HTMLTextAreaElement;

/** Sets a field's value as typing does, so that React's onChange (and the form) sees it. */
function type(field: Field, value: string) {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement : HTMLInputElement;
  Object.getOwnPropertyDescriptor(prototype.prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * What the visitor typed into the fields of a prerendered page, and where the focus was,
 * before the app took over; the function returned puts back whatever the app's first render
 * reset.
 */
export function keepTypedValues(root: HTMLElement): () => void {
  const typed = [...root.querySelectorAll<Field>('input, textarea')]
    .filter((field) => field.value !== field.defaultValue)
    .map((field) => [field, field.value] as const);
  const focused = document.activeElement;
  return () => {
    for (const [field, value] of typed) {
      if (field.isConnected && field.value !== value) type(field, value);
    }
    if (
      focused instanceof HTMLElement &&
      focused.isConnected &&
      document.activeElement !== focused
    ) {
      focused.focus();
    }
  };
}
