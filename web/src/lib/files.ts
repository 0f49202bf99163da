/** What uploads the server accepts (SetProfessionalPhoto, AddLicence): checked before sending. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

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
export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;
/** Photos a request holds at most, and a message. */
export const REQUEST_PHOTOS_MAX = 8;
export const MESSAGE_PHOTOS_MAX = 4;

/**
 * A photo checked before sending: empty, larger than 15 MiB, or of a type the browser knows
 * is not a JPEG, PNG or WebP. A file whose type the browser does not know goes to the server,
 * which knows images by their bytes.
 */
export function checkPhoto(file: File): UploadProblem | null {
  if (file.size === 0) return 'FILE_EMPTY';
  if (file.size > PHOTO_MAX_BYTES) return 'FILE_TOO_LARGE';
  if (file.type !== '' && !(IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return 'FILE_TYPE_NOT_ALLOWED';
  }
  return null;
}
