import { useCallback, useEffect, useState } from 'react';
import type { FieldValues, UseFormWatch } from 'react-hook-form';
import { clearDraft, readDraft, saveDraft } from '@/lib/drafts';
import type { Role } from '@/lib/session';
import { browserStore } from '@/lib/storage';
import { useSignedInId } from '@/lib/use-signed-in-id';

export interface FormDraft<T extends FieldValues> {
  /** What was typed last time, to start the form from (null: nothing kept). */
  restored: Partial<T> | null;
  /** Keeps what the form holds now. */
  save: (values: Partial<T>) => void;
  /** Forgets the draft: call it once the form was sent. */
  clear: () => void;
}

/**
 * The draft of a form (`@/lib/drafts`) of the account signed in as `role`: what was typed in
 * it, kept in the browser as it is typed (with `useDraftAutosave`), given back when the form
 * opens again (after the session ended and the person signed in again, say), and cleared
 * once the form is sent. Without a name (`form` null) nothing is kept.
 */
export function useFormDraft<T extends FieldValues>(form: string | null, role: Role): FormDraft<T> {
  const accountId = useSignedInId(role);
  const [restored] = useState(() =>
    form && accountId
      ? (readDraft(browserStore(), accountId, form, Date.now()) as Partial<T> | null)
      : null,
  );
  const save = useCallback(
    (values: Partial<T>) => {
      if (form && accountId) saveDraft(browserStore(), accountId, form, values, Date.now());
    },
    [form, accountId],
  );
  const clear = useCallback(() => {
    if (form && accountId) clearDraft(browserStore(), accountId, form);
  }, [form, accountId]);
  return { restored, save, clear };
}

/** Saves the form's draft at every change. */
export function useDraftAutosave<T extends FieldValues>(
  watch: UseFormWatch<T>,
  draft: FormDraft<T>,
): void {
  const { save } = draft;
  useEffect(() => {
    const subscription = watch((values) => save(values as Partial<T>));
    return () => subscription.unsubscribe();
  }, [watch, save]);
}
