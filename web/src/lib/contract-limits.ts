import {
  getOption,
  hasOption,
  isFieldSet,
  type DescField,
  type DescMessage,
  type MessageShape,
} from '@bufbuild/protobuf';
import type { Path } from '@bufbuild/protobuf/reflect';
import type { Validator } from '@bufbuild/protovalidate';
import type { i18n as I18n } from 'i18next';
import {
  BytesRulesSchema,
  field as fieldRulesOption,
  RepeatedRulesSchema,
  StringRulesSchema,
  type FieldRules,
} from '@/gen/buf/validate/validate_pb';
import { LOCALES, parseLanguage } from './language';

/**
 * What the contract says a request field accepts: its `buf.validate.field` rules, read from
 * the generated descriptors. Forms take their bounds from here (an input's maxLength, a rule's
 * figure and its words), so a limit is written once, in proto/, and never again in web/src.
 * Lengths are in characters for texts and in bytes for files.
 */
export interface Limit {
  /** `required`, or a text or list that may not be empty (`min_len: 1`, `min_items: 1`). */
  required: boolean;
  minLen?: number;
  maxLen?: number;
  minItems?: number;
  maxItems?: number;
  /** Inclusive numeric bounds (`gte`, `lte`; `gt` and `lt` are turned into them for integers). */
  min?: number;
  max?: number;
  pattern?: string;
  uuid: boolean;
  /** An enum field refusing values the contract does not name. */
  definedOnly: boolean;
  /** What each item of a repeated field accepts. */
  items?: Limit;
}

const NUMERIC = new Set([
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
  'float',
  'double',
]);

interface Bounds {
  lessThan: { case: 'lt' | 'lte'; value: number | bigint } | { case: undefined };
  greaterThan: { case: 'gt' | 'gte'; value: number | bigint } | { case: undefined };
}

function readLimit(rules: FieldRules | undefined): Limit {
  const limit: Limit = { required: rules?.required ?? false, uuid: false, definedOnly: false };
  const type = rules?.type;
  if (!type?.case) return limit;
  if (type.case === 'string') {
    const s = type.value;
    if (isFieldSet(s, StringRulesSchema.field.minLen)) limit.minLen = Number(s.minLen);
    if (isFieldSet(s, StringRulesSchema.field.maxLen)) limit.maxLen = Number(s.maxLen);
    if (isFieldSet(s, StringRulesSchema.field.pattern)) limit.pattern = s.pattern;
    limit.uuid = s.wellKnown.case === 'uuid' && s.wellKnown.value;
  } else if (type.case === 'bytes') {
    const b = type.value;
    if (isFieldSet(b, BytesRulesSchema.field.minLen)) limit.minLen = Number(b.minLen);
    if (isFieldSet(b, BytesRulesSchema.field.maxLen)) limit.maxLen = Number(b.maxLen);
  } else if (type.case === 'repeated') {
    const r = type.value;
    if (isFieldSet(r, RepeatedRulesSchema.field.minItems)) limit.minItems = Number(r.minItems);
    if (isFieldSet(r, RepeatedRulesSchema.field.maxItems)) limit.maxItems = Number(r.maxItems);
    if (r.items) limit.items = readLimit(r.items);
  } else if (type.case === 'enum') {
    limit.definedOnly = type.value.definedOnly;
  } else if (NUMERIC.has(type.case)) {
    const { lessThan, greaterThan } = type.value as unknown as Bounds;
    const integer = type.case !== 'float' && type.case !== 'double';
    const step = integer ? 1 : 0;
    if (greaterThan.case === 'gte') limit.min = Number(greaterThan.value);
    if (greaterThan.case === 'gt') limit.min = Number(greaterThan.value) + step;
    if (lessThan.case === 'lte') limit.max = Number(lessThan.value);
    if (lessThan.case === 'lt') limit.max = Number(lessThan.value) - step;
  }
  if ((limit.minLen ?? 0) > 0 || (limit.minItems ?? 0) > 0) limit.required = true;
  return limit;
}

/**
 * The field at a dotted path of generated names (`fee.amountCents`) or of the contract's
 * names (`fee.amount_cents`, as field masks and the page editor name them).
 */
function fieldAt(schema: DescMessage, path: string): DescField {
  let message: DescMessage | undefined = schema;
  let found: DescField | undefined;
  for (const name of path.split('.')) {
    found = message?.fields.find((f) => f.localName === name || f.name === name);
    if (!found) throw new Error(`${schema.typeName} has no field ${path}`);
    message = found.message;
  }
  return found as DescField;
}

/** A top-level field of a message, by its generated name. */
export type FieldName<Desc extends DescMessage> = Exclude<
  keyof MessageShape<Desc>,
  '$typeName' | '$unknown'
> &
  string;

/**
 * The rules the contract states for a field of a request message, such as
 * `limitOf(SendMessageRequestSchema, 'text').maxLen`. A nested field is named by its path
 * (`limitOf(CreateQuoteRequestSchema, 'fee.amountCents')`); an unknown name throws.
 */
export function limitOf<Desc extends DescMessage>(
  schema: Desc,
  name: FieldName<Desc> | `${FieldName<Desc>}.${string}`,
): Limit {
  const field = fieldAt(schema, name);
  return readLimit(
    hasOption(field, fieldRulesOption) ? getOption(field, fieldRulesOption) : undefined,
  );
}

/**
 * The same for a message known only at run time, by a path of the contract's names: the page
 * editor's fields are `how_1.description` of HomePage or of ProfessionalPage.
 */
export function limitAt(schema: DescMessage, path: string): Limit {
  const field = fieldAt(schema, path);
  return readLimit(
    hasOption(field, fieldRulesOption) ? getOption(field, fieldRulesOption) : undefined,
  );
}

/** A bound the form needs: the contract must state it, or the form would make one up. */
export function bound(value: number | undefined, what: string): number {
  if (value === undefined) throw new Error(`The contract states no ${what}`);
  return value;
}

/** The kinds of rule the forms put into words; one message per kind, in both languages. */
export type RuleKind =
  | 'maxLen'
  | 'minLen'
  | 'required'
  | 'maxItems'
  | 'minItems'
  | 'range'
  | 'min'
  | 'max'
  | 'uuid'
  | 'pattern'
  | 'definedOnly'
  | 'maxBytes'
  | 'emptyFile'
  | 'invalid';

/** Megabytes (MiB), as sizes are written to the reader: 15 for 15,728,640 bytes. */
export const megabytes = (bytes: number) => bytes / (1024 * 1024);

/** A figure as the reader writes numbers: 4,000 in English, 4 000 in French. */
export function formatFigure(i18n: I18n, value: number): string {
  return new Intl.NumberFormat(LOCALES[parseLanguage(i18n.language)], {
    maximumFractionDigits: 2,
  }).format(value);
}

/** The words of a rule, in the reader's language, with the contract's figures. */
export function limitWords(i18n: I18n, kind: RuleKind, limit: Limit): string {
  const f = (value: number | undefined) => formatFigure(i18n, value ?? 0);
  switch (kind) {
    case 'maxLen':
      return i18n.t('limits.maxLen', { max: f(limit.maxLen) });
    case 'minLen':
      return i18n.t('limits.minLen', { min: f(limit.minLen) });
    case 'maxItems':
      return i18n.t('limits.maxItems', { max: f(limit.maxItems) });
    case 'minItems':
      return i18n.t('limits.minItems', { min: f(limit.minItems) });
    case 'range':
      if (limit.min === undefined) return i18n.t('limits.max', { max: f(limit.max) });
      if (limit.max === undefined) return i18n.t('limits.min', { min: f(limit.min) });
      return i18n.t('limits.range', { min: f(limit.min), max: f(limit.max) });
    case 'min':
      return i18n.t('limits.min', { min: f(limit.min) });
    case 'max':
      return i18n.t('limits.max', { max: f(limit.max) });
    case 'maxBytes':
      return i18n.t('limits.maxBytes', { max: f(megabytes(limit.maxLen ?? 0)) });
    case 'required':
    case 'uuid':
    case 'pattern':
    case 'definedOnly':
    case 'emptyFile':
    case 'invalid':
      return i18n.t(`limits.${kind}`);
  }
}

/**
 * react-hook-form's `maxLength` rule of a text field, from the contract: the bound and its
 * words (put `maxLength={rule.value}` on the input too).
 */
export function maxLengthRule(i18n: I18n, limit: Limit): { value: number; message: string } {
  return {
    value: bound(limit.maxLen, 'maximum length'),
    message: limitWords(i18n, 'maxLen', limit),
  };
}

/**
 * A react-hook-form `validate` step for a text's `max_len`: the text as it is sent (trimmed),
 * counted in characters as the server counts them, or the limit's words.
 */
export function fitsMaxLen(i18n: I18n, limit: Limit, value: string): true | string {
  return (
    [...value.trim()].length <= bound(limit.maxLen, 'maximum length') ||
    limitWords(i18n, 'maxLen', limit)
  );
}

/** The kind of a rule protovalidate names (`string.max_len`, `int32.gte_lte`, `required`). */
function violationKind(ruleId: string, limit: Limit): RuleKind {
  if (ruleId === 'required') return 'required';
  const [type = '', rule = ''] = ruleId.split('.', 2);
  if (type === 'bytes' && rule === 'max_len') return 'maxBytes';
  if (type === 'bytes' && rule === 'min_len') return 'emptyFile';
  if (rule === 'max_len') return 'maxLen';
  if (rule === 'min_len') return limit.minLen === 1 ? 'required' : 'minLen';
  if (rule === 'max_items') return 'maxItems';
  if (rule === 'min_items') return 'minItems';
  if (rule.startsWith('uuid')) return 'uuid';
  if (rule === 'pattern') return 'pattern';
  if (rule === 'defined_only') return 'definedOnly';
  if (NUMERIC.has(type) && /^(gt|gte|lt|lte)(_|$)/.test(rule)) return 'range';
  return 'invalid';
}

/** The path of generated names protovalidate's field path stands for, list indexes left out. */
function pathName(path: Path): { name: string; field?: DescField; inList: boolean } {
  const names: string[] = [];
  let field: DescField | undefined;
  let inList = false;
  for (const item of path) {
    if (item.kind === 'field') {
      names.push(item.localName);
      field = item;
      inList = false;
    } else if (item.kind === 'list_sub' || item.kind === 'map_sub') {
      inList = true;
    }
  }
  return { name: names.join('.'), field, inList };
}

/** Per field (`text`, `fee.amountCents`, `draft.address.line1`): what is wrong with it. */
export type FieldProblems = Record<string, string>;

/**
 * Validates a whole request against the contract with protovalidate, and puts each refused
 * field's first violation into words in the reader's language. protovalidate (with its CEL
 * interpreter) is loaded here on first use, so only the forms that send pay for it.
 */
export async function validateRequest<Desc extends DescMessage>(
  i18n: I18n,
  schema: Desc,
  message: MessageShape<Desc>,
): Promise<FieldProblems> {
  const validator = await loadValidator();
  const result = validator.validate(schema, message);
  if (result.kind === 'valid') return {};
  if (result.kind === 'error') throw result.error;
  const problems: FieldProblems = {};
  for (const violation of result.violations) {
    const { name, field, inList } = pathName(violation.field);
    if (name in problems) continue;
    let limit = readLimit(field && getOption(field, fieldRulesOption));
    if (inList && limit.items) limit = limit.items;
    problems[name] = limitWords(i18n, violationKind(violation.ruleId, limit), limit);
  }
  return problems;
}

let validator: Promise<Validator> | undefined;

/** The one validator of the app, made on first use (protovalidate plans each schema once). */
export function loadValidator(): Promise<Validator> {
  validator ??= import('@bufbuild/protovalidate').then(({ createValidator }) => createValidator());
  return validator;
}
