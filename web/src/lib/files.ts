import { SendMessageRequestSchema } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { bound, limitOf } from './contract-limits';

/*
 * File sizes are not annotations: the server checks a file after the request arrives and
 * answers FILE_TOO_LARGE (a reason the forms already put into words), so the contract states
 * them in the fields' comments and they are written here once, beside that comment's figure.
 */
const MIB = 1024 * 1024;

/** SetProfessionalPhoto's and AddLicence's `content`: "at most 5 MiB". */
export const MAX_UPLOAD_BYTES = 5 * MIB;
/** A licence's file goes through AddLicence, under the same 5 MiB. */
export const LICENCE_MAX_BYTES = MAX_UPLOAD_BYTES;

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const LICENCE_TYPES = [...IMAGE_TYPES, 'application/pdf'] as const;

/** The server's reason codes for the same refusals, so one message serves both. */
export type UploadProblem = 'FILE_EMPTY' | 'FILE_TOO_LARGE' | 'FILE_TYPE_NOT_ALLOWED';

export function checkUpload(
  file: File,
  allowed: readonly string[],
  maxBytes: number = MAX_UPLOAD_BYTES,
): UploadProblem | null {
  if (file.size === 0) return 'FILE_EMPTY';
  if (file.size > maxBytes) return 'FILE_TOO_LARGE';
  if (!allowed.includes(file.type)) return 'FILE_TYPE_NOT_ALLOWED';
  return null;
}

/** A file's bytes, for the `content` field of an upload RPC. */
export async function fileBytes(file: Blob): Promise<Uint8Array> {
  return new Uint8Array(await file.arrayBuffer());
}

/** AddRepairRequestPhoto's and AddMessagePhoto's `content`: "at most 15 MiB". */
export const PHOTO_MAX_BYTES = 15 * MIB;
/**
 * Photos a request holds at most. The contract does not state it (photos are added one call
 * at a time; the server refuses the ninth with FAILED_PRECONDITION), so it is written here.
 */
export const REQUEST_PHOTOS_MAX = 8;
/** Photos a message carries at most: SendMessageRequest.photo_ids' `max_items`. */
export const MESSAGE_PHOTOS_MAX = bound(
  limitOf(SendMessageRequestSchema, 'photoIds').maxItems,
  'photo count',
);

/**
 * A photo checked before sending: empty, larger than the contract's bound (15 MiB), or of a
 * type the browser knows is not a JPEG, PNG or WebP. A file whose type the browser does not
 * know goes to the server, which knows images by their bytes.
 */
export function checkPhoto(file: File, maxBytes: number = PHOTO_MAX_BYTES): UploadProblem | null {
  if (file.size === 0) return 'FILE_EMPTY';
  if (file.size > maxBytes) return 'FILE_TOO_LARGE';
  if (file.type !== '' && !(IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return 'FILE_TYPE_NOT_ALLOWED';
  }
  return null;
}
