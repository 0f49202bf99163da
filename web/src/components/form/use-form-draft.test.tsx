import { act, renderHook } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { signIn } from '@/test/stub-server';
import { useDraftAutosave, useFormDraft } from './use-form-draft';

interface Values {
  description: string;
  urgent: boolean;
}

/** A form with a draft, as a screen uses them. */
function useDraftedForm(name: string | null) {
  const draft = useFormDraft<Values>(name, 'customer');
  const form = useForm<Values>({
    defaultValues: { description: '', urgent: false, ...draft.restored },
  });
  useDraftAutosave(form.watch, draft);
  return { form, draft };
}

describe('useFormDraft', () => {
  it('keeps what is typed and gives it back when the form opens again', () => {
    signIn('customer', 'c1');
    const first = renderHook(() => useDraftedForm('create-request'));
    act(() => first.result.current.form.setValue('description', 'Burst pipe in the basement'));
    act(() => first.result.current.form.setValue('urgent', true));
    first.unmount();

    const again = renderHook(() => useDraftedForm('create-request'));
    expect(again.result.current.form.getValues()).toEqual({
      description: 'Burst pipe in the basement',
      urgent: true,
    });
  });

  it('forgets the draft once the form was sent', () => {
    signIn('customer', 'c1');
    const first = renderHook(() => useDraftedForm('create-request'));
    act(() => first.result.current.form.setValue('description', 'Sent already'));
    act(() => first.result.current.draft.clear());
    first.unmount();
    const again = renderHook(() => useDraftedForm('create-request'));
    expect(again.result.current.form.getValues('description')).toBe('');
  });

  it('gives nothing to another account, and keeps nothing without a name', () => {
    signIn('customer', 'c1');
    const first = renderHook(() => useDraftedForm('create-request'));
    act(() => first.result.current.form.setValue('description', 'Mine'));
    first.unmount();
    signIn('customer', 'c2');
    const other = renderHook(() => useDraftedForm('create-request'));
    expect(other.result.current.form.getValues('description')).toBe('');

    const unnamed = renderHook(() => useDraftedForm(null));
    act(() => unnamed.result.current.form.setValue('description', 'Not kept'));
    expect(localStorage.getItem('drafts:c2')).toBeNull();
  });
});
