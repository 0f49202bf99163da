import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { ServiceSchema } from '@/gen/repairs/content/v1/content_pb';
import { findService, serviceName } from './list-services';

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

describe('findService', () => {
  const services = [
    create(ServiceSchema, {
      id: 'plumbing',
      name: { en: 'Plumbing Services', fr: 'Services de plomberie' },
    }),
    create(ServiceSchema, {
      id: 'pests',
      name: { en: 'Pest Control Services', fr: "Services d'extermination" },
    }),
  ];

  it('finds a service by its id first', () => {
    expect(findService(services, 'pests', 'Plumbing Services')?.id).toBe('pests');
  });

  it.each([
    ['Plumbing Services', 'plumbing'],
    ['Services de plomberie', 'plumbing'],
    ['Services d’extermination', 'pests'],
    ['pest control services', 'pests'],
  ])('finds the service a reply names %j in either language', (name, id) => {
    expect(findService(services, '', name)?.id).toBe(id);
  });

  it('finds nothing for a name the catalogue does not know, or no name', () => {
    expect(findService(services, '', 'Roofing Services')).toBeUndefined();
    expect(findService(services, '', '')).toBeUndefined();
    expect(findService(services, 'unknown')).toBeUndefined();
  });
});
