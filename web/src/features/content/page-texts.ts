import {
  clone,
  fromJson,
  type DescMessage,
  type JsonValue,
  type MessageShape,
} from '@bufbuild/protobuf';
import { reflect } from '@bufbuild/protobuf/reflect';

/**
 * Builds a page message (HomePage, ProfessionalPage) from its catalogue section. The catalogue
 * keys are the proto field names (`banner_h1`, `how_1`, ...), which protobuf JSON accepts;
 * the section's other keys (texts the contract does not carry) are ignored.
 */
export function pageFromCatalogue<Desc extends DescMessage>(
  schema: Desc,
  section: unknown,
): MessageShape<Desc> {
  return fromJson(schema, section as JsonValue, { ignoreUnknownFields: true });
}

/**
 * The texts a page shows: each field the server filled in, the catalogue's default for the
 * fields it left empty, and the defaults alone while the server has not answered (or cannot).
 */
export function withDefaults<Desc extends DescMessage>(
  schema: Desc,
  defaults: MessageShape<Desc>,
  fromServer: MessageShape<Desc> | undefined,
): MessageShape<Desc> {
  if (!fromServer) return defaults;
  const merged = reflect(schema, clone(schema, defaults));
  const server = reflect(schema, fromServer);
  for (const field of schema.fields) {
    if (server.isSet(field)) merged.set(field, server.get(field));
  }
  return merged.message as MessageShape<Desc>;
}
