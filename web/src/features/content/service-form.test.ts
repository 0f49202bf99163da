import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { ServiceSchema } from '@/gen/repairs/content/v1/content_pb';
import { iconRefusal, takenNames } from './service-form';

const service = (id: string, en: string, fr: string, active = true) =>
  create(ServiceSchema, { id, name: { en, fr }, active });

describe('the service form', () => {
  const catalogue = [
    service('s1', 'Plumbing', 'Plomberie'),
    service('s2', 'Roofing', 'Toiture'),
    service('s3', 'Locksmith', 'Serrurerie', false),
  ];

  it('finds which name an active service already has, whatever the case and spaces', () => {
    expect(takenNames({ nameEn: ' plumbing ', nameFr: 'Autre' }, catalogue)).toEqual(['nameEn']);
    expect(takenNames({ nameEn: 'Other', nameFr: 'TOITURE' }, catalogue)).toEqual(['nameFr']);
    expect(takenNames({ nameEn: 'Roofing', nameFr: 'Plomberie' }, catalogue)).toEqual([
      'nameEn',
      'nameFr',
    ]);
  });

  it('leaves out archived services and the service edited', () => {
    expect(takenNames({ nameEn: 'Locksmith', nameFr: 'Serrurerie' }, catalogue)).toEqual([]);
    expect(takenNames({ nameEn: 'Plumbing', nameFr: 'Plomberie' }, catalogue, 's1')).toEqual([]);
  });

  it('refuses an icon as the server would: empty, over 1 MiB, not an image', () => {
    const file = (bytes: number, type = 'image/png') =>
      new File([new Uint8Array(bytes)], 'icon', { type });
    expect(iconRefusal(file(1024 * 1024))).toBeNull();
    expect(iconRefusal(file(1024 * 1024 + 1))).toBe('serviceAdmin.iconTooLarge');
    expect(iconRefusal(file(0))).toBe('errors.reasons.FILE_EMPTY');
    expect(iconRefusal(file(10, 'image/gif'))).toBe('errors.reasons.FILE_TYPE_NOT_ALLOWED');
  });
});
