import { create, getOption, type DescField } from '@bufbuild/protobuf';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { field as fieldRules, type FieldRules } from '@/gen/buf/validate/validate_pb';
import { HandleStripeEventRequestSchema } from '@/gen/repairs/billing/v1/billing_pb';
import { TranslateTextRequestSchema } from '@/gen/repairs/content/v1/content_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import {
  AddRepairRequestPhotoRequestSchema,
  CreateQuoteRequestSchema,
  CreateRepairRequestRequestSchema,
  RepairRequestDraftSchema,
  SendMessageRequestSchema,
  Urgency,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { Composer } from './composer';
import { renderComposer } from './render-composer';
import { limitOf, validateRequest } from '@/lib/contract-limits';
import { MAX_ESTIMATE_HOURS, parseHours } from '@/lib/duration';
import { checkPhoto, MESSAGE_PHOTOS_MAX, PHOTO_MAX_BYTES } from '@/lib/files';
import { createI18n } from '@/lib/i18n';

/**
 * One test per kind of rule the forms use: each reads the annotation straight from the
 * descriptor (not through contract-limits), checks that the module and the forms use that
 * figure, and that the words say it in English and in French.
 */

/** A field's `buf.validate.field` option as the descriptor holds it. */
const rulesOf = (field: DescField): FieldRules => getOption(field, fieldRules);

function annotated<K extends string>(field: DescField, kind: string, rule: K): number {
  const rules = rulesOf(field).type;
  expect(rules.case).toBe(kind);
  const value = (rules.value as unknown as Record<K, bigint | number>)[rule];
  return Number(value);
}

function bounds(field: DescField): { min: number; max: number } {
  const rules = rulesOf(field).type.value as unknown as {
    greaterThan: { case: string; value: bigint | number };
    lessThan: { case: string; value: bigint | number };
  };
  expect(rules.greaterThan.case).toBe('gte');
  expect(rules.lessThan.case).toBe('lte');
  return { min: Number(rules.greaterThan.value), max: Number(rules.lessThan.value) };
}

const en = createI18n('en', document.createElement('html'));
const fr = createI18n('fr', document.createElement('html'));
const UUID = '6b1f6a4e-8f5e-4c2b-9a57-3c1d2e4f5a6b';

describe('string max_len', () => {
  const max = annotated(SendMessageRequestSchema.field.text, 'string', 'maxLen');

  it('is read from SendMessageRequest.text and given to the composer', () => {
    expect(limitOf(SendMessageRequestSchema, 'text').maxLen).toBe(max);
    renderComposer(Composer, 'en');
    expect(screen.getByLabelText('Your message')).toHaveAttribute('maxlength', String(max));
  });

  it.each([
    ['en', 'Your message', 'Send', 'At most 4,000 characters.'],
    ['fr', 'Votre message', 'Envoyer', '4\u00a0000 caractères au plus.'],
  ] as const)(
    'refuses one character more in the composer (%s)',
    async (lng, label, send, words) => {
      const server = renderComposer(Composer, lng);
      fireEvent.change(screen.getByLabelText(label), { target: { value: 'x'.repeat(max + 1) } });
      await userEvent.click(screen.getByRole('button', { name: send }));
      expect(await screen.findByText(words, { normalizer: (text) => text })).toBeVisible();
      expect(words).toContain(new Intl.NumberFormat(`${lng}-CA`).format(max));
      expect(server.requests('sendMessage')).toEqual([]);
    },
  );

  it('is what protovalidate refuses, in the same words', async () => {
    const request = create(SendMessageRequestSchema, {
      repairRequestId: UUID,
      text: 'x'.repeat(max + 1),
    });
    expect(await validateRequest(en, SendMessageRequestSchema, request)).toEqual({
      text: 'At most 4,000 characters.',
    });
    expect(await validateRequest(fr, SendMessageRequestSchema, request)).toEqual({
      text: '4\u00a0000 caractères au plus.',
    });
    request.text = 'x'.repeat(max);
    expect(await validateRequest(en, SendMessageRequestSchema, request)).toEqual({});
  });
});

describe('string min_len and required', () => {
  it('reads TranslateTextRequest.texts’ items (min_len 1) and a required draft', () => {
    const texts = limitOf(TranslateTextRequestSchema, 'texts');
    expect(texts.items?.minLen).toBe(1);
    expect(texts.items?.required).toBe(true);
    expect(rulesOf(CreateRepairRequestRequestSchema.field.draft).required).toBe(true);
    expect(limitOf(CreateRepairRequestRequestSchema, 'draft').required).toBe(true);
  });

  it('says both in the reader’s language', async () => {
    const texts = create(TranslateTextRequestSchema, { texts: [''], targetLanguage: Language.FR });
    const noDraft = create(CreateRepairRequestRequestSchema, {});
    expect(await validateRequest(en, TranslateTextRequestSchema, texts)).toEqual({
      texts: 'This is required.',
    });
    expect(await validateRequest(fr, TranslateTextRequestSchema, texts)).toEqual({
      texts: 'Ce champ est obligatoire.',
    });
    expect(await validateRequest(en, CreateRepairRequestRequestSchema, noDraft)).toEqual({
      draft: 'This is required.',
    });
    expect(await validateRequest(fr, CreateRepairRequestRequestSchema, noDraft)).toEqual({
      draft: 'Ce champ est obligatoire.',
    });
  });
});

describe('repeated min_items', () => {
  it('refuses an empty list of texts, in both languages', async () => {
    const min = annotated(TranslateTextRequestSchema.field.texts, 'repeated', 'minItems');
    expect(limitOf(TranslateTextRequestSchema, 'texts').minItems).toBe(min);
    const request = create(TranslateTextRequestSchema, { texts: [], targetLanguage: Language.FR });
    expect(await validateRequest(en, TranslateTextRequestSchema, request)).toEqual({
      texts: `At least ${min}.`,
    });
    expect(await validateRequest(fr, TranslateTextRequestSchema, request)).toEqual({
      texts: `${min} au moins.`,
    });
  });
});

describe('string uuid', () => {
  it('reads SendMessageRequest.repair_request_id as a UUID and says a bad one', async () => {
    const wellKnown = rulesOf(SendMessageRequestSchema.field.repairRequestId).type;
    expect(wellKnown.case === 'string' && wellKnown.value.wellKnown.case).toBe('uuid');
    expect(limitOf(SendMessageRequestSchema, 'repairRequestId').uuid).toBe(true);
    const request = create(SendMessageRequestSchema, { repairRequestId: 'r-1', text: 'Hi' });
    expect(await validateRequest(en, SendMessageRequestSchema, request)).toEqual({
      repairRequestId: 'This identifier is not valid.',
    });
    expect(await validateRequest(fr, SendMessageRequestSchema, request)).toEqual({
      repairRequestId: 'Cet identifiant n’est pas valide.',
    });
  });
});

describe('repeated max_items', () => {
  const max = annotated(SendMessageRequestSchema.field.photoIds, 'repeated', 'maxItems');

  it('is the composer’s photo count, said in its help', () => {
    expect(limitOf(SendMessageRequestSchema, 'photoIds').maxItems).toBe(max);
    expect(MESSAGE_PHOTOS_MAX).toBe(max);
    renderComposer(Composer, 'fr');
    expect(screen.getByText(new RegExp(`^Jusqu’à ${max} photos JPEG`))).toBeVisible();
  });

  it('is what protovalidate refuses, in both languages', async () => {
    const request = create(SendMessageRequestSchema, {
      repairRequestId: UUID,
      photoIds: Array.from({ length: max + 1 }, () => UUID),
    });
    expect(await validateRequest(en, SendMessageRequestSchema, request)).toEqual({
      photoIds: `At most ${max}.`,
    });
    expect(await validateRequest(fr, SendMessageRequestSchema, request)).toEqual({
      photoIds: `${max} au plus.`,
    });
  });
});

describe('numeric gte and lte', () => {
  const minutes = bounds(CreateQuoteRequestSchema.field.estimatedMinutes);

  it('bounds a quote’s estimate and its fee', () => {
    expect(limitOf(CreateQuoteRequestSchema, 'estimatedMinutes')).toMatchObject(minutes);
    expect(MAX_ESTIMATE_HOURS * 60).toBe(minutes.max);
    expect(parseHours(String(minutes.max / 60))).toBe(minutes.max);
    expect(parseHours(String(minutes.max / 60 + 1))).toBeNull();
    const fee = CreateQuoteRequestSchema.field.fee.message?.field.amountCents;
    expect(fee && limitOf(CreateQuoteRequestSchema, 'fee.amountCents')).toMatchObject(
      bounds(fee as DescField),
    );
  });

  it('says the range in the reader’s language', async () => {
    const request = create(CreateQuoteRequestSchema, {
      repairRequestId: UUID,
      estimatedMinutes: minutes.max + 1,
      fee: { amountCents: 3000n, currency: 'CAD' },
    });
    expect(await validateRequest(en, CreateQuoteRequestSchema, request)).toEqual({
      estimatedMinutes: 'From 1 to 43,200.',
    });
    expect(await validateRequest(fr, CreateQuoteRequestSchema, request)).toEqual({
      estimatedMinutes: 'De 1 à 43\u00a0200.',
    });
  });
});

describe('enum defined_only', () => {
  it('refuses an urgency the contract does not name', async () => {
    const rules = rulesOf(RepairRequestDraftSchema.field.urgency).type;
    expect(rules.case === 'enum' && rules.value.definedOnly).toBe(true);
    expect(limitOf(RepairRequestDraftSchema, 'urgency').definedOnly).toBe(true);
    const request = create(CreateRepairRequestRequestSchema, {
      draft: {
        serviceId: UUID,
        description: 'A leak under the sink.',
        urgency: 99 as Urgency,
        address: { line1: '1 Main St', city: 'Edmonton', province: 'AB', postalCode: 'T5J 0N3' },
      },
    });
    expect(await validateRequest(en, CreateRepairRequestRequestSchema, request)).toEqual({
      'draft.urgency': 'Choose one of the options.',
    });
    expect(await validateRequest(fr, CreateRepairRequestRequestSchema, request)).toEqual({
      'draft.urgency': 'Choisissez l’une des options.',
    });
    request.draft!.urgency = Urgency.IMMEDIATE;
    expect(await validateRequest(en, CreateRepairRequestRequestSchema, request)).toEqual({});
  });
});

describe('bytes max_len', () => {
  const max = annotated(HandleStripeEventRequestSchema.field.payload, 'bytes', 'maxLen');

  it('is read from the contract and said in megabytes in both languages', async () => {
    expect(limitOf(HandleStripeEventRequestSchema, 'payload').maxLen).toBe(max);
    const request = create(HandleStripeEventRequestSchema, {
      payload: new Uint8Array(max + 1),
    });
    const mb = max / (1024 * 1024);
    expect(await validateRequest(en, HandleStripeEventRequestSchema, request)).toMatchObject({
      payload: `At most ${new Intl.NumberFormat('en-CA').format(mb)} MB.`,
    });
    expect(await validateRequest(fr, HandleStripeEventRequestSchema, request)).toMatchObject({
      payload: `${new Intl.NumberFormat('fr-CA').format(mb)}\u00a0Mo au plus.`,
    });
  });

  it('leaves photo sizes to the server’s FILE_TOO_LARGE, checked before uploading', () => {
    expect(limitOf(AddRepairRequestPhotoRequestSchema, 'content').maxLen).toBeUndefined();
    const photo = (size: number) =>
      new File([new Uint8Array(size)], 'p.jpg', { type: 'image/jpeg' });
    expect(checkPhoto(photo(PHOTO_MAX_BYTES))).toBeNull();
    expect(checkPhoto(photo(PHOTO_MAX_BYTES + 1))).toBe('FILE_TOO_LARGE');
  });
});
