type Field = HTMLInputElement | HTMLTextAreaElement;

const isField = (target: EventTarget | null): target is Field =>
  target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;

/** Sets a field's value as typing does, so that React's onChange (and the form) sees it. */
function type(field: Field, value: string) {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement : HTMLInputElement;
  Object.getOwnPropertyDescriptor(prototype.prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Keeps what the visitor types into the fields of a prerendered page while the app takes it
 * over, and where the focus is: the fields typed into already, then every keystroke until the
 * function returned is called, once the app's first render is in place (a form's first render
 * may reset its fields). It puts back what that render reset and stops listening; a field the
 * app rendered anew is found by its id.
 */
export function keepTypedValues(root: HTMLElement): () => void {
  const typed = new Map<Field, string>();
  for (const field of root.querySelectorAll<Field>('input, textarea')) {
    if (field.value !== field.defaultValue) typed.set(field, field.value);
  }
  const keep = (event: Event) => {
    if (isField(event.target) && root.contains(event.target)) {
      typed.set(event.target, event.target.value);
    }
  };
  // On the document, in the capture phase: before React (on the root) sees the keystroke.
  document.addEventListener('input', keep, true);
  const focused = document.activeElement;
  return () => {
    document.removeEventListener('input', keep, true);
    for (const [kept, value] of typed) {
      const field = kept.isConnected ? kept : document.getElementById(kept.id);
      if (isField(field) && field.value !== value) type(field, value);
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
