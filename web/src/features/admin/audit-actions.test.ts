import { describe, expect, it } from 'vitest';
import { auditActionKey, auditChanges } from './audit-actions';

describe('audit events', () => {
  it('lists the fields that changed, with their values before and after', () => {
    expect(
      auditChanges(
        '{"banner_h1":"Old","banner_h2":"Same","active":true}',
        '{"banner_h1":"New","banner_h2":"Same","active":false}',
      ),
    ).toEqual([
      { field: 'banner_h1', before: 'Old', after: 'New' },
      { field: 'active', before: 'true', after: 'false' },
    ]);
  });

  it('shows every field of a creation and of a deletion', () => {
    expect(auditChanges('', '{"code":"SAVE20","discount_percent":20}')).toEqual([
      { field: 'code', before: '', after: 'SAVE20' },
      { field: 'discount_percent', before: '', after: '20' },
    ]);
    expect(auditChanges('{"name":{"en":"Roofing"}}', '')).toEqual([
      { field: 'name', before: '{"en":"Roofing"}', after: '' },
    ]);
  });

  it('keeps a record that is not a JSON object as one value', () => {
    expect(auditChanges('not json', '')).toEqual([
      { field: 'value', before: 'not json', after: '' },
    ]);
  });

  it('names known actions and leaves others to show their code', () => {
    expect(auditActionKey('professional.approve')).toBe('audit.actions.approve');
    expect(auditActionKey('something.new')).toBeUndefined();
  });
});
