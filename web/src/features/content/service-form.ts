import type { Service } from '@/gen/repairs/content/v1/content_pb';
import { LocalizedTextSchema } from '@/gen/repairs/type/v1/common_pb';
import { limitOf } from '@/lib/contract-limits';
import { reasonMessageKey } from '@/lib/error-reasons';
import { checkUpload, IMAGE_TYPES } from '@/lib/files';
import type { TranslationKey } from '@/lib/translation-key';

/** The service form's values: the texts in both languages and a new icon. */
export interface ServiceValues {
  nameEn: string;
  nameFr: string;
  descriptionEn: string;
  descriptionFr: string;
  /** A new icon; none keeps the icon as it is. */
  icon: File | null;
}

export type ServiceField = keyof ServiceValues;

/**
 * Service.name: 1 to 100 characters in each language. The contract says it only in words: the
 * name is a repairs.type.v1.LocalizedText, whose rules (at most 5000 characters) are those of
 * any text in both languages, so the name's own bound is written here.
 */
export const NAME_MAX = 100;

/** A description in one language: LocalizedText's `max_len`. */
export const DESCRIPTION = limitOf(LocalizedTextSchema, 'en');

/**
 * CreateServiceRequest.icon: "at most 1 MiB". A file's size is checked by the server after the
 * request arrives (FILE_TOO_LARGE), not annotated, so the comment's figure is written here.
 */
export const ICON_MAX_BYTES = 1024 * 1024;

/** Form field -> the UpdateService mask path it changes. */
export const MASK_PATHS: Record<ServiceField, string> = {
  nameEn: 'name.en',
  nameFr: 'name.fr',
  descriptionEn: 'description.en',
  descriptionFr: 'description.fr',
  icon: 'icon',
};

export const SERVICE_FIELDS = Object.keys(MASK_PATHS) as ServiceField[];

/** The form's values for a service as stored (a new one when there is none). */
export const serviceValues = (service?: Service): ServiceValues => ({
  nameEn: service?.name?.en ?? '',
  nameFr: service?.name?.fr ?? '',
  descriptionEn: service?.description?.en ?? '',
  descriptionFr: service?.description?.fr ?? '',
  icon: null,
});

const sameName = (a: string | undefined, b: string) =>
  (a ?? '').trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/**
 * Which of the names another active service already has, as the catalogue reads: where to
 * show SERVICE_NAME_TAKEN, which does not say which language collided.
 */
export function takenNames(
  values: Pick<ServiceValues, 'nameEn' | 'nameFr'>,
  catalogue: Service[],
  selfId?: string,
): ('nameEn' | 'nameFr')[] {
  const others = catalogue.filter((other) => other.active && other.id !== selfId);
  return (['nameEn', 'nameFr'] as const).filter((field) =>
    others.some((other) =>
      sameName(field === 'nameEn' ? other.name?.en : other.name?.fr, values[field]),
    ),
  );
}

/**
 * Why an icon would be refused (the server's own checks, made before sending): the message's
 * key, or null for a file that may be sent.
 */
export function iconRefusal(file: File): TranslationKey | null {
  const refused = checkUpload(file, IMAGE_TYPES, ICON_MAX_BYTES);
  if (refused === 'FILE_TOO_LARGE') return 'serviceAdmin.iconTooLarge';
  return refused && reasonMessageKey(refused);
}
