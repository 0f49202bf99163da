import type { TranslationKey } from '@/lib/translation-key';

/** An admin's copy of a person's data, on a customer's or a professional's record. */
const DATA_EXPORT_ACTIONS: Record<string, TranslationKey> = {
  'data_export.request': 'audit.actions.requestDataExport',
  'data_export.download_link': 'audit.actions.dataExportLink',
};

/**
 * The actions the server writes to the audit log (`<record>.<verb>`) with their labels, by
 * kind of record (an action may be written on several kinds). An action missing here still
 * shows, under its own code.
 */
export const AUDIT_ACTIONS: Record<string, Record<string, TranslationKey>> = {
  professional: {
    'professional.approve': 'audit.actions.approve',
    'professional.deny': 'audit.actions.deny',
    'professional.pending_change.approve': 'audit.actions.approveChange',
    'professional.pending_change.refuse': 'audit.actions.refuseChange',
    'professional.delete': 'audit.actions.delete',
    'professional.record_payout': 'audit.actions.recordPayout',
    'professional.contacts_view': 'audit.actions.openContacts',
    ...DATA_EXPORT_ACTIONS,
  },
  customer: {
    'customer.delete': 'audit.actions.delete',
    'customer.contacts_view': 'audit.actions.openContacts',
    ...DATA_EXPORT_ACTIONS,
  },
  orders: { 'orders.contacts_read': 'audit.actions.readContacts' },
  conversation: { 'conversation.read': 'audit.actions.readConversation' },
  coupon: {
    'coupon.create': 'audit.actions.create',
    'coupon.activate': 'audit.actions.activate',
    'coupon.deactivate': 'audit.actions.deactivate',
    'coupon.delete': 'audit.actions.delete',
  },
  payment: {
    'payment.capture': 'audit.actions.capture',
    'payment.void': 'audit.actions.void',
    'payment.refund': 'audit.actions.refund',
    'payment.test_charge': 'audit.actions.testCharge',
    'payment.confirm': 'audit.actions.confirm',
    'payment.release_unattached': 'audit.actions.releaseUnattached',
  },
  service: {
    'service.create': 'audit.actions.create',
    'service.update': 'audit.actions.update',
    'service.reorder': 'audit.actions.reorder',
    'service.archive': 'audit.actions.archive',
    'service.delete': 'audit.actions.delete',
  },
  home_page: { 'home_page.update': 'audit.actions.update' },
  professional_page: { 'professional_page.update': 'audit.actions.update' },
  terms_page: { 'terms_page.update': 'audit.actions.update' },
  privacy_page: { 'privacy_page.update': 'audit.actions.update' },
  contact_message: {
    'contact_message.mark_read': 'audit.actions.markRead',
  },
  job_problem: { 'job_problem.resolve': 'audit.actions.resolve' },
  conversation_message: { 'conversation_message.send': 'audit.actions.send' },
  service_account: {
    'service_account.create': 'audit.actions.create',
    'service_account.rotate_key': 'audit.actions.rotateKey',
    'service_account.revoke': 'audit.actions.revoke',
  },
  privacy_incident: {
    'privacy_incident.record': 'audit.actions.recordIncident',
    'privacy_incident.amend': 'audit.actions.amendIncident',
  },
};

export const AUDIT_RECORD_TYPES: Record<string, TranslationKey> = {
  job_problem: 'audit.records.jobProblem',
  conversation_message: 'audit.records.conversationMessage',
  professional: 'audit.records.professional',
  customer: 'audit.records.customer',
  coupon: 'audit.records.coupon',
  payment: 'audit.records.payment',
  service: 'audit.records.service',
  home_page: 'audit.records.homePage',
  professional_page: 'audit.records.professionalPage',
  terms_page: 'audit.records.termsPage',
  privacy_page: 'audit.records.privacyPage',
  contact_message: 'audit.records.contactMessage',
  service_account: 'audit.records.serviceAccount',
  privacy_incident: 'audit.records.privacyIncident',
  orders: 'audit.records.orders',
  conversation: 'audit.records.conversation',
};

/** The kinds of record an action is written on, in the order AUDIT_ACTIONS lists them. */
export function auditActionRecords(action: string): string[] {
  return Object.entries(AUDIT_ACTIONS)
    .filter(([, actions]) => action in actions)
    .map(([type]) => type);
}

/** The label key of an action, wherever it is listed. */
export function auditActionKey(action: string): TranslationKey | undefined {
  for (const actions of Object.values(AUDIT_ACTIONS)) {
    if (action in actions) return actions[action];
  }
  return undefined;
}

/** One field an action changed: its value before and after ('' where there was none). */
export interface AuditChange {
  field: string;
  before: string;
  after: string;
}

const parseObject = (json: string): Record<string, unknown> => {
  if (!json) return {};
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  } catch {
    return { value: json };
  }
};

const show = (value: unknown): string =>
  value === undefined || value === null
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/**
 * The fields an audit event's before and after records differ in (every field of a creation
 * or a deletion), in the order they first appear.
 */
export function auditChanges(beforeJson: string, afterJson: string): AuditChange[] {
  const before = parseObject(beforeJson);
  const after = parseObject(afterJson);
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .map((field) => ({ field, before: show(before[field]), after: show(after[field]) }))
    .filter((change) => change.before !== change.after);
}
