import { AccountsService } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useRefreshingMutation } from '@/lib/query-keys';

/**
 * Records a privacy incident, or amends one (`incident.id` set) (AccountsService.
 * RecordPrivacyIncident): the register and the audit log reload.
 */
export function useRecordPrivacyIncident() {
  return useRefreshingMutation(
    AccountsService.method.recordPrivacyIncident,
    AccountsService.method.listPrivacyIncidents,
    AccountsService.method.listAuditEvents,
  );
}
