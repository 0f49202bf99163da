import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { PrivacyIncident, PrivacyIncidentSchema } from '@/gen/repairs/accounts/v1/accounts_pb';

/**
 * A privacy incident as its form holds it: times as `datetime-local` fields hold them (the
 * browser's time zone, to the minute, '' when not given), the count of people as typed, the
 * risk as a choice ('' until made).
 */
export interface IncidentValues {
  occurredAt: string;
  discoveredAt: string;
  description: string;
  informationInvolved: string;
  peopleAffected: string;
  risk: '' | 'yes' | 'no';
  riskAssessment: string;
  measuresTaken: string;
  commissionerNotifiedAt: string;
  peopleNotifiedAt: string;
}

/** A new incident: nothing known yet but that no count is known (0). */
export const BLANK_INCIDENT: IncidentValues = {
  occurredAt: '',
  discoveredAt: '',
  description: '',
  informationInvolved: '',
  peopleAffected: '0',
  risk: '',
  riskAssessment: '',
  measuresTaken: '',
  commissionerNotifiedAt: '',
  peopleNotifiedAt: '',
};

const pad = (value: number) => String(value).padStart(2, '0');

/** A time as a `datetime-local` field holds it, in the browser's time zone: 2026-11-23T15:30. */
export function localInputOf(time: Timestamp | undefined): string {
  if (!time) return '';
  const date = timestampDate(time);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/**
 * The moment a `datetime-local` value stands for (a date and time without a zone is read in
 * the browser's time zone), or `undefined` when it is empty or not a time.
 */
export function timeOfInput(value: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The form's values of a recorded incident, to amend it. */
export function valuesOf(incident: PrivacyIncident): IncidentValues {
  return {
    occurredAt: localInputOf(incident.occurredAt),
    discoveredAt: localInputOf(incident.discoveredAt),
    description: incident.description,
    informationInvolved: incident.informationInvolved,
    peopleAffected: String(incident.peopleAffected),
    risk: incident.riskOfSeriousInjury ? 'yes' : 'no',
    riskAssessment: incident.riskAssessment,
    measuresTaken: incident.measuresTaken,
    commissionerNotifiedAt: localInputOf(incident.commissionerNotifiedAt),
    peopleNotifiedAt: localInputOf(incident.peopleNotifiedAt),
  };
}

/**
 * A field's time as sent: the recorded one, to the second, when the field still shows it
 * (an amendment changes no time it was not asked to), else the time typed; unset when empty.
 */
function timeSent(value: string, recorded: Timestamp | undefined): Timestamp | undefined {
  if (recorded && localInputOf(recorded) === value) return recorded;
  const date = timeOfInput(value);
  return date ? timestampFromDate(date) : undefined;
}

/**
 * The incident to send (RecordPrivacyIncidentRequest.incident): a new one, or with
 * `recorded` the amendment of that record (its id set). Texts are trimmed as the server keeps
 * them.
 */
export function incidentOf(
  values: IncidentValues,
  recorded?: PrivacyIncident,
): MessageInitShape<typeof PrivacyIncidentSchema> {
  return {
    id: recorded?.id ?? '',
    occurredAt: timeSent(values.occurredAt, recorded?.occurredAt),
    discoveredAt: timeSent(values.discoveredAt, recorded?.discoveredAt),
    description: values.description.trim(),
    informationInvolved: values.informationInvolved.trim(),
    peopleAffected: Number(values.peopleAffected.trim()),
    riskOfSeriousInjury: values.risk === 'yes',
    riskAssessment: values.riskAssessment.trim(),
    measuresTaken: values.measuresTaken.trim(),
    commissionerNotifiedAt: timeSent(
      values.commissionerNotifiedAt,
      recorded?.commissionerNotifiedAt,
    ),
    peopleNotifiedAt: timeSent(values.peopleNotifiedAt, recorded?.peopleNotifiedAt),
  };
}

/**
 * Whether an incident that presents a real risk of serious injury still waits for a
 * notification the law requires (the commissioners', the people's).
 */
export const notificationDue = (incident: PrivacyIncident) =>
  incident.riskOfSeriousInjury && (!incident.commissionerNotifiedAt || !incident.peopleNotifiedAt);
