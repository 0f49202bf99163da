/**
 * Typed stand-ins for the server in tests: AccountsService, BillingService, MarketplaceService
 * and MatchingService methods given by the test (every other call fails with UNIMPLEMENTED,
 * like an unbuilt RPC), the service catalogue, a record of each call with its bearer token,
 * and errors shaped like the server's.
 */
import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, createRouterTransport, type ServiceImpl } from '@connectrpc/connect';
import { BadRequestSchema, ErrorInfoSchema } from '@/gen/google/rpc/error_details_pb';
import {
  AccountsService,
  CustomerSchema,
  ProfessionalSchema,
  ProfessionalState,
  SessionSchema,
  SmsUpdates,
  type Customer,
  type Professional,
} from '@/gen/repairs/accounts/v1/accounts_pb';
import { BillingService } from '@/gen/repairs/billing/v1/billing_pb';
import { ContentService } from '@/gen/repairs/content/v1/content_pb';
import {
  AddressSuggestionKind,
  MarketplaceService,
  RepairRequestSchema,
  RepairRequestState,
  Urgency,
  type RepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { MatchingService } from '@/gen/repairs/matching/v1/matching_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import { issuedSession } from '@/features/accounts/issued-session';
import { startSession } from '@/lib/session';
import { browserSessionEnvironment } from '@/lib/session-environment';
import { TEST_SESSION_SECONDS, fakeToken } from './render-app';

type AccountsImpl = Partial<ServiceImpl<typeof AccountsService>>;
export type BillingImpl = Partial<ServiceImpl<typeof BillingService>>;
export type MarketplaceImpl = Partial<ServiceImpl<typeof MarketplaceService>>;
type MatchingImpl = Partial<ServiceImpl<typeof MatchingService>>;
type AnyImpl = AccountsImpl & BillingImpl & MarketplaceImpl & MatchingImpl;

export interface RecordedCall {
  method: string;
  request: unknown;
  authorization: string | null;
}

export const TEST_SERVICES = [
  {
    id: '0190a6c0-0000-7000-8000-000000000001',
    name: { en: 'Plumbing Services', fr: 'Services de plomberie' },
  },
  {
    id: '0190a6c0-0000-7000-8000-000000000002',
    name: { en: 'Roofing Services', fr: 'Services de toiture' },
  },
];

/** A street address as the map service (Photon) suggests it: 800 Maclaren Street, Ottawa. */
export const MACLAREN_SUGGESTION = {
  kind: AddressSuggestionKind.ADDRESS,
  displayName: '800 Maclaren Street, Ottawa, ON, K2P 0T4',
  line1: '800 Maclaren Street',
  postalCode: 'K2P 0T4',
  city: 'Ottawa',
  province: 'ON',
};

export function stubServer(
  accounts: AccountsImpl = {},
  billing: BillingImpl = {},
  {
    marketplace = {},
    matching = {},
  }: { marketplace?: MarketplaceImpl; matching?: MatchingImpl } = {},
) {
  const calls: RecordedCall[] = [];
  const record = <T extends object>(impl: T): T => {
    const recorded: Record<string, unknown> = {};
    for (const [method, handler] of Object.entries(impl)) {
      recorded[method] = (request: unknown, context: { requestHeader: Headers }) => {
        calls.push({ method, request, authorization: context.requestHeader.get('authorization') });
        return (handler as (request: unknown, context: unknown) => unknown)(request, context);
      };
    }
    return recorded as T;
  };
  const transport = createRouterTransport(({ service }) => {
    service(AccountsService, record(accounts));
    service(BillingService, record(billing));
    service(MarketplaceService, record(marketplace));
    service(MatchingService, record(matching));
    service(ContentService, { listServices: () => ({ services: TEST_SERVICES }) });
  });
  /** The requests `method` received, in order. */
  const requests = <T = Record<string, unknown>>(method: keyof AnyImpl) =>
    calls.filter((call) => call.method === method).map((call) => call.request as T);
  return { transport, calls, requests };
}

/** An error as the server sends it: a code, an ErrorInfo reason and field violations. */
export function rpcError(
  code: Code,
  reason: string,
  violations: Record<string, string> = {},
  message = `server says ${reason}`,
): ConnectError {
  const fieldViolations = Object.entries(violations).map(([field, description]) => ({
    field,
    description,
  }));
  return new ConnectError(message, code, undefined, [
    { desc: ErrorInfoSchema, value: { reason, domain: 'repairs' } },
    ...(fieldViolations.length > 0 ? [{ desc: BadRequestSchema, value: { fieldViolations } }] : []),
  ]);
}

export { Code };

const ROLE_CLAIMS = { customer: 'customer', professional: 'professional', admin: 'admin' } as const;
const TOKEN_KEYS = {
  customer: 'token',
  professional: 'professional-token',
  admin: 'admin_token',
} as const;

/** Stores a fresh token of `role` for account `id`, as a sign-in does. */
export function signIn(role: keyof typeof TOKEN_KEYS, id: string): string {
  const token = fakeToken({ sub: id, role: ROLE_CLAIMS[role], iat: Math.floor(Date.now() / 1000) });
  localStorage.setItem(TOKEN_KEYS[role], token);
  return token;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * A Session as the server answers a sign-in or a renewal now: a token that ends at its `exp`
 * (`expire_time`, TEST_SESSION_SECONDS away), in a 30-day sign-in.
 */
export function lastingSession(role: keyof typeof TOKEN_KEYS, id: string, refreshToken: string) {
  const now = Date.now();
  return create(SessionSchema, {
    accessToken: fakeToken({ sub: id, role: ROLE_CLAIMS[role], iat: Math.floor(now / 1000) }),
    expireTime: timestampFromMs(now + TEST_SESSION_SECONDS * 1000),
    refreshToken,
    refreshExpiresAt: timestampFromMs(now + 30 * DAY_MS),
    accountId: id,
  });
}

/** Stores a session of `role` that lasts (with refresh token `refresh-1`), as a sign-in does. */
export function signInLasting(role: keyof typeof TOKEN_KEYS, id: string): void {
  const session = lastingSession(role, id, 'refresh-1');
  startSession(role, issuedSession(session), {}, browserSessionEnvironment());
}

export const CUSTOMER_ID = '0190a6c0-1111-7000-8000-000000000001';
export const PROFESSIONAL_ID = '0190a6c0-2222-7000-8000-000000000002';

/**
 * The server of a signed-in customer (CUSTOMER_ID, whose account is [`customer`]) with the
 * marketplace and billing methods the test gives.
 */
export function customerServer(marketplace: MarketplaceImpl = {}, billing: BillingImpl = {}) {
  signIn('customer', CUSTOMER_ID);
  return stubServer({ getCustomer: () => ({ customer: customer() }) }, billing, { marketplace });
}

export function customer(fields: MessageInitShape<typeof CustomerSchema> = {}): Customer {
  return create(CustomerSchema, {
    id: CUSTOMER_ID,
    name: 'Casey Customer',
    email: 'casey@example.ca',
    phone: '+14035550100',
    phoneVerified: true,
    smsUpdates: SmsUpdates.YES,
    language: Language.EN,
    createTime: timestampFromMs(Date.UTC(2026, 0, 5)),
    ...fields,
  });
}

/** A professional with a saved profile, waiting for approval, unless told otherwise. */
export function professional(
  fields: MessageInitShape<typeof ProfessionalSchema> = {},
): Professional {
  const base: MessageInitShape<typeof ProfessionalSchema> = {
    id: PROFESSIONAL_ID,
    name: 'Paule Pro',
    email: 'paule@example.ca',
    phone: '+14035550111',
    phoneVerified: true,
    smsUpdates: SmsUpdates.YES,
    language: Language.FR,
    state: ProfessionalState.WAITING_FOR_APPROVAL,
    profile: {
      description: 'Licensed plumber.',
      registeredAddress: '100 7 Ave SW, Calgary',
      homeBase: {
        line1: '100 7 Ave SW',
        city: 'Calgary',
        province: 'AB',
        postalCode: 'T2P 1J9',
        country: 'CA',
      },
      availableDays: [1, 2, 3],
      availableFrom: '08:00',
      availableTo: '18:00',
      radiusKm: 50,
      serviceIds: [TEST_SERVICES[0]!.id],
      qualification: 'Journeyman',
      experience: 3,
      minimumFee: { amountCents: 3000n, currency: 'CAD' },
    },
  };
  return create(ProfessionalSchema, { ...base, ...fields } as MessageInitShape<
    typeof ProfessionalSchema
  >);
}

export const REQUEST_ID = '0190a6c0-3333-7000-8000-000000000003';

/** An open, emergency plumbing request in Calgary with its full address, unless told otherwise. */
export function repairRequest(
  fields: MessageInitShape<typeof RepairRequestSchema> = {},
): RepairRequest {
  const base: MessageInitShape<typeof RepairRequestSchema> = {
    id: REQUEST_ID,
    customerId: CUSTOMER_ID,
    serviceId: TEST_SERVICES[0]!.id,
    serviceName: TEST_SERVICES[0]!.name.en,
    description: 'The kitchen sink leaks under the cabinet.',
    urgency: Urgency.IMMEDIATE,
    location: {
      case: 'address',
      value: {
        line1: '225 7 Ave SW',
        city: 'Calgary',
        province: 'AB',
        postalCode: 'T2P 2W3',
        country: 'CA',
      },
    },
    state: RepairRequestState.OPEN,
    quoteCount: 0,
    createTime: timestampFromMs(Date.UTC(2026, 10, 23, 15, 30)),
  };
  return create(RepairRequestSchema, { ...base, ...fields } as MessageInitShape<
    typeof RepairRequestSchema
  >);
}
