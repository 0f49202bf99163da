import { describe, expect, it } from 'vitest';
import { createI18n } from '@/lib/i18n';
import {
  AUDIT_RECORD_TYPES,
  auditActionKey,
  auditActionRecords,
  auditChanges,
} from './audit-actions';

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

  it.each([
    ['privacy_incident.record', 'Incident recorded', 'Incident inscrit'],
    ['privacy_incident.amend', 'Incident amended', 'Incident modifié'],
    ['data_export.request', 'Asked for a copy of their data', 'Copie de ses données demandée'],
    ['data_export.download_link', 'Got a link to their data', 'Lien vers ses données obtenu'],
  ])('names the privacy action %s in both languages', (action, en, fr) => {
    const key = auditActionKey(action)!;
    expect(createI18n('en', document.createElement('html')).t(key)).toBe(en);
    expect(createI18n('fr', document.createElement('html')).t(key)).toBe(fr);
  });

  it('knows on which records each action is written: a copy of data on either person', () => {
    expect(auditActionRecords('data_export.request')).toEqual(['professional', 'customer']);
    expect(auditActionRecords('privacy_incident.amend')).toEqual(['privacy_incident']);
    expect(auditActionRecords('something.new')).toEqual([]);
    expect(
      createI18n('fr', document.createElement('html')).t(AUDIT_RECORD_TYPES.privacy_incident!),
    ).toBe('Incident de confidentialité');
  });
});
