import {
  AddLicenceRequestSchema,
  SetProfessionalPhotoRequestSchema,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import {
  AddMessagePhotoRequestSchema,
  AddRepairRequestPhotoRequestSchema,
  SendMessageRequestSchema,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { bound, limitOf } from './contract-limits';

/** A request's `bytes` field's largest size, as the contract states it. */
function maxBytes(limit: ReturnType<typeof limitOf>): number {
  return bound(limit.maxLen, 'upload size');
}

/** What uploads the server accepts (SetProfessionalPhoto, AddLicence): checked before sending. */
export const MAX_UPLOAD_BYTES = maxBytes(limitOf(SetProfessionalPhotoRequestSchema, 'content'));
/** The same bound on a licence's file (the contract states it on each request). */
export const LICENCE_MAX_BYTES = maxBytes(limitOf(AddLicenceRequestSchema, 'content'));

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

/** Photos of the damage (AddRepairRequestPhoto, AddMessagePhoto): checked before sending. */
export const PHOTO_MAX_BYTES = maxBytes(limitOf(AddRepairRequestPhotoRequestSchema, 'content'));
/** A message's photos go through AddMessagePhoto, whose bound the contract states too. */
const MESSAGE_PHOTO_MAX_BYTES = maxBytes(limitOf(AddMessagePhotoRequestSchema, 'content'));
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
export function checkPhoto(
  file: File,
  maxBytes: number = Math.min(PHOTO_MAX_BYTES, MESSAGE_PHOTO_MAX_BYTES),
): UploadProblem | null {
  if (file.size === 0) return 'FILE_EMPTY';
  if (file.size > maxBytes) return 'FILE_TOO_LARGE';
  if (file.type !== '' && !(IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return 'FILE_TYPE_NOT_ALLOWED';
  }
  return null;
}
