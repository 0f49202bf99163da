/**
 * The profile form's values, made from the professional the server sends and turned back
 * into UpdateProfessionalProfileRequest. Pure, so the conversions are tested on their own.
 */
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ServerField } from '@/components/form/use-server-errors';
import {
  SmsUpdates,
  type Experience,
  type Professional,
  type UpdateProfessionalProfileRequestSchema,
  type Weekday,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { DEFAULT_PROVINCE, normalisePostalCode } from '@/lib/address';
import type { Language } from '@/lib/language';
import { centsToDollarsText, parseDollars } from '@/lib/money';
import { normaliseTaxNumber } from '@/lib/tax-numbers';
import { DEFAULT_HOURS } from './profile-fields';

export interface ProfileValues {
  name: string;
  email: string;
  smsUpdates: boolean;
  description: string;
  registeredAddress: string;
  line1: string;
  line2: string;
  city: string;
  province: string;
  postalCode: string;
  /** Weekday numbers as text ('1' Monday ... '7' Sunday), as checkbox values are. */
  availableDays: string[];
  availableFrom: string;
  availableTo: string;
  radiusKm: string;
  serviceIds: string[];
  qualification: string;
  /** The Experience number as text; '' until chosen. */
  experience: string;
  /** Dollars as typed, the reader's way: "30.00" in English, "30,00" in French. */
  minimumFee: string;
  /** Told of emergencies outside the hours above when nobody answered in time. */
  emergenciesAnyHour: boolean;
  /** GST/HST registration number as typed; '' when not registered. */
  gstHstNumber: string;
  /** Quebec QST registration number as typed; '' when not registered for QST. */
  qstNumber: string;
}

/**
 * The form as the professional left it: what was vetted as they proposed it while their
 * change waits for review (saving the approved values would take the change back), the
 * rest as saved; the fee written the way of the page's `language`.
 */
export function profileValues(professional: Professional, language: Language): ProfileValues {
  const profile = professional.profile;
  const home = profile?.homeBase;
  const proposed = professional.pendingChange?.proposed;
  const vetted = proposed ?? {
    name: professional.name,
    registeredAddress: profile?.registeredAddress ?? '',
    serviceIds: profile?.serviceIds ?? [],
    qualification: profile?.qualification ?? '',
    experience: profile?.experience,
  };
  return {
    name: vetted.name,
    email: professional.email,
    smsUpdates: professional.smsUpdates === SmsUpdates.YES,
    description: profile?.description ?? '',
    registeredAddress: vetted.registeredAddress,
    line1: home?.line1 ?? '',
    line2: home?.line2 ?? '',
    city: home?.city ?? '',
    province: home?.province || DEFAULT_PROVINCE,
    postalCode: home?.postalCode ?? '',
    availableDays: (profile?.availableDays ?? []).map(String),
    availableFrom: profile?.availableFrom || DEFAULT_HOURS.from,
    availableTo: profile?.availableTo || DEFAULT_HOURS.to,
    radiusKm: profile?.radiusKm ? String(profile.radiusKm) : '',
    serviceIds: vetted.serviceIds,
    qualification: vetted.qualification,
    experience: vetted.experience ? String(vetted.experience) : '',
    minimumFee: profile?.minimumFee
      ? centsToDollarsText(profile.minimumFee.amountCents, language)
      : '',
    emergenciesAnyHour: profile?.emergenciesAnyHour ?? false,
    gstHstNumber: profile?.gstHstNumber ?? '',
    qstNumber: profile?.qstNumber ?? '',
  };
}

type ProfileRequest = MessageInitShape<typeof UpdateProfessionalProfileRequestSchema>;

/** The request that saves the (validated) form, its fee read the way of `language`. */
export function profileRequest(
  id: string,
  values: ProfileValues,
  language: Language,
): ProfileRequest {
  return {
    id,
    name: values.name.trim(),
    email: values.email.trim(),
    smsUpdates: values.smsUpdates ? SmsUpdates.YES : SmsUpdates.NO,
    emergenciesAnyHour: values.emergenciesAnyHour,
    profile: {
      description: values.description.trim(),
      registeredAddress: values.registeredAddress.trim(),
      homeBase: {
        line1: values.line1.trim(),
        line2: values.line2.trim(),
        city: values.city.trim(),
        province: values.province,
        postalCode: normalisePostalCode(values.postalCode),
        country: 'CA',
      },
      availableDays: values.availableDays.map(Number).sort() as Weekday[],
      availableFrom: values.availableFrom,
      availableTo: values.availableTo,
      radiusKm: Number.parseInt(values.radiusKm, 10),
      serviceIds: values.serviceIds,
      qualification: values.qualification.trim(),
      experience: Number(values.experience) as Experience,
      minimumFee: {
        amountCents: parseDollars(values.minimumFee, language) ?? 0n,
        currency: 'CAD',
      },
      gstHstNumber: normaliseTaxNumber(values.gstHstNumber),
      qstNumber: normaliseTaxNumber(values.qstNumber),
    },
  };
}

/** Where the server's field violations show in the form. */
export const PROFILE_SERVER_FIELDS: Record<string, ServerField<ProfileValues>> = {
  name: 'name',
  email: 'email',
  'profile.description': 'description',
  'profile.registered_address': 'registeredAddress',
  'profile.home_base.line1': 'line1',
  'profile.home_base.line2': 'line2',
  'profile.home_base.city': 'city',
  'profile.home_base.province': 'province',
  'profile.home_base.postal_code': {
    field: 'postalCode',
    messageKey: 'professionalProfile.errors.postalCodeUnknown',
  },
  'profile.available_days': 'availableDays',
  'profile.available_from': 'availableFrom',
  'profile.available_to': 'availableTo',
  'profile.radius_km': 'radiusKm',
  'profile.service_ids': 'serviceIds',
  'profile.qualification': 'qualification',
  'profile.experience': 'experience',
  'profile.minimum_fee': 'minimumFee',
  'profile.gst_hst_number': {
    field: 'gstHstNumber',
    messageKey: 'professionalProfile.errors.gstHstNumber',
  },
  'profile.qst_number': { field: 'qstNumber', messageKey: 'professionalProfile.errors.qstNumber' },
};

export const PROFILE_REASON_FIELDS = { EMAIL_TAKEN: 'email' } as const;
