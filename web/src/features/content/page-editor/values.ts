import {
  fromJson,
  toJson,
  type DescMessage,
  type JsonObject,
  type MessageShape,
} from '@bufbuild/protobuf';
import type { EditorSection } from './sections';

/**
 * A page's texts as the editor's form holds them: the page's proto JSON with the proto
 * field names (`banner_h1`, `how_1: { heading }`), every edited field present.
 */
export type PageValues = Record<string, string | Record<string, string>>;

const at = (json: JsonObject, path: string): string => {
  let value: unknown = json;
  for (const part of path.split('.')) {
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : '';
  }
  return typeof value === 'string' ? value : '';
};

/** The form's values for a page message: each field of the sections, '' where unset. */
export function valuesOf<Desc extends DescMessage>(
  schema: Desc,
  page: MessageShape<Desc> | undefined,
  sections: EditorSection[],
): PageValues {
  const json = page ? (toJson(schema, page, { useProtoFieldName: true }) as JsonObject) : {};
  const values: PageValues = {};
  for (const { path } of sections.flatMap((section) => section.fields)) {
    const [head, tail] = path.split('.') as [string, string | undefined];
    if (tail === undefined) {
      values[head] = at(json, path);
    } else {
      const group = (values[head] ??= {}) as Record<string, string>;
      group[tail] = at(json, path);
    }
  }
  return values;
}

/** The page message the form's values describe. */
export function pageOf<Desc extends DescMessage>(
  schema: Desc,
  values: PageValues,
): MessageShape<Desc> {
  return fromJson(schema, values, { ignoreUnknownFields: true });
}

/**
 * The update mask of an edit: the paths of the fields react-hook-form marks dirty
 * (`{ banner_h1: true, how_1: { heading: true } }` -> `banner_h1`, `how_1.heading`).
 */
export function dirtyPaths(dirty: object, prefix = ''): string[] {
  return Object.entries(dirty).flatMap(([key, value]: [string, unknown]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value === true) return [path];
    return value && typeof value === 'object' ? dirtyPaths(value, path) : [];
  });
}
