import { getOption, setExtension } from '@bufbuild/protobuf';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { field as fieldRules } from '@/gen/buf/validate/validate_pb';
import { SendMessageRequestSchema } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { renderComposer } from './render-composer';

/**
 * The forms follow the annotation, not a figure of their own: the contract's bound on a
 * message's text is moved (here, in this test's copy of the descriptors) before the composer
 * is loaded, and the composer must bound, count and refuse at the moved figure. A constant
 * written back into the web would keep the old one and fail here.
 */
const text = SendMessageRequestSchema.field.text;
const rules = getOption(text, fieldRules);
if (rules.type.case !== 'string' || !text.proto.options) throw new Error('no max_len on text');
const annotated = Number(rules.type.value.maxLen);
const moved = annotated + 234;
rules.type.value.maxLen = BigInt(moved);
setExtension(text.proto.options, fieldRules, rules);

const { Composer } = await import('./composer');

it('bounds, counts and refuses a message at the annotation’s figure', async () => {
  const server = renderComposer(Composer, 'fr');
  const field = screen.getByLabelText('Votre message');
  const figure = new Intl.NumberFormat('fr-CA').format(moved);
  expect(field).toHaveAttribute('maxlength', String(moved));
  expect(field).toHaveAccessibleDescription(new RegExp(`^0 caractères sur ${figure}\\.`));
  fireEvent.change(field, { target: { value: 'x'.repeat(moved + 1) } });
  await userEvent.click(screen.getByRole('button', { name: 'Envoyer' }));
  expect(
    await screen.findByText(`${figure} caractères au plus.`, { normalizer: (text) => text }),
  ).toBeVisible();
  expect(server.requests('sendMessage')).toEqual([]);
});
