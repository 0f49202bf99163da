import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { ServiceSchema } from '@/gen/repairs/content/v1/content_pb';
import { serviceName } from './list-services';

describe('serviceName', () => {
  const pests = create(ServiceSchema, {
    id: 's1',
    name: { en: "Exterminator's services", fr: "Services d'extermination" },
  });

  it.each([
    ['fr', 'Services d’extermination'],
    ['en', "Exterminator's services"],
  ] as const)('typesets an admin’s %s name like the catalogue’s: %j', (language, name) => {
    expect(serviceName(pests, language)).toBe(name);
  });

  it('falls back on the English name, then the id', () => {
    expect(serviceName(create(ServiceSchema, { id: 's2', name: { en: 'Roofing' } }), 'fr')).toBe(
      'Roofing',
    );
    expect(serviceName(create(ServiceSchema, { id: 's3' }), 'fr')).toBe('s3');
  });
});
