import { afterEach, describe, expect, it } from 'vitest';
import { keepTypedValues } from './typed-values';

/** A keystroke: the field's new value, then its input event. */
function typeInto(field: HTMLInputElement, value: string) {
  field.value = value;
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

function page() {
  const root = document.body.appendChild(document.createElement('div'));
  root.innerHTML = '<form><input id="email"><input id="password" type="password"></form>';
  const field = (id: string) => root.querySelector<HTMLInputElement>(`#${id}`) as HTMLInputElement;
  return { root, email: field('email'), password: field('password') };
}

describe('keepTypedValues', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('puts back every character typed before and during the takeover that the first render reset', () => {
    const { root, email, password } = page();
    typeInto(email, 'someone');
    const restore = keepTypedValues(root);
    typeInto(email, 'someone@example.ca');
    typeInto(password, 'secret');
    // The app's first render resets the form's fields (no event: not the visitor's doing).
    email.value = '';
    password.value = '';
    const seen: string[] = [];
    root.addEventListener('input', (event) => seen.push((event.target as HTMLInputElement).id));
    restore();
    expect([email.value, password.value]).toEqual(['someone@example.ca', 'secret']);
    // The app's own handlers hear of each value, as from typing.
    expect(seen).toEqual(['email', 'password']);
  });

  it('stops listening once restored, and finds a field rendered anew by its id', () => {
    const { root, email } = page();
    const restore = keepTypedValues(root);
    typeInto(email, 'someone@example.ca');
    const fresh = document.createElement('input');
    fresh.id = 'email';
    email.replaceWith(fresh);
    restore();
    expect(fresh.value).toBe('someone@example.ca');
    typeInto(fresh, 'other');
    fresh.value = '';
    restore();
    expect(fresh.value).toBe('someone@example.ca');
  });
});
