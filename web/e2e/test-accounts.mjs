// Real accounts for the end-to-end tests, made through the legacy `/api` paths of the BFF:
// one per audience of src/app/route-views.ts, each with what a browser stores once signed in.
import { BASE_URL } from './browser.mjs';
import { ADMIN_EMAIL, ADMIN_PASSWORD, freshPhone, legacyApi, phoneCode, RUN } from './stack.mjs';

export const PASSWORD = 'a-good-password-1';

/** Sends a code to a fresh number and verifies it with the code read from the outbox. */
async function verifyPhone({ id, token }) {
  const phone = freshPhone();
  const number = { phoneNumber: phone.national, countryCode: '+1' };
  await legacyApi('/sms/send-otp', { body: { id, ...number, sms_updates: 'no' }, token });
  const otp = await phoneCode(phone.e164);
  await legacyApi('/sms/verify-otp', { body: { id, otp, ...number, lang: 'en' }, token });
}

/** A customer signed up through the legacy API, phone verified when `verify`. */
export async function customer(name, { verify }) {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${RUN}@example.ca`;
  const reply = await legacyApi('/users', { body: { name, email, password: PASSWORD } });
  if (verify) await verifyPhone(reply);
  return { id: reply.id, email, storage: { token: reply.token, username: reply.name } };
}

/**
 * Saves a professional's profile through the old multipart form (`/api/professionals/profile`):
 * `fields` are its field names (office_address, city, radius_to_cater, specialisation, ...).
 */
async function saveProfile({ id, token }, { name, email, lang }, fields) {
  const form = new FormData();
  for (const [key, value] of Object.entries({ id, name, email, lang, ...fields })) {
    form.append(key, value);
  }
  const response = await fetch(`${BASE_URL}/api/professionals/profile`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (response.status !== 200) {
    throw new Error(`/professionals/profile answered ${response.status}: ${await response.text()}`);
  }
}

/**
 * A professional signed up through the legacy API, phone verified when `verify`, with the
 * `profile` fields saved (before the approval, which a later profile change would undo),
 * approved by the admin whose token is `approveWith`; `lang` is the account's language.
 */
export async function professional(name, { verify, approveWith, lang = 'en', profile }) {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${RUN}@example.ca`;
  const reply = await legacyApi('/professionals', {
    body: { name, email, password: PASSWORD, lang },
  });
  if (verify) await verifyPhone(reply);
  if (profile) await saveProfile(reply, { name, email, lang }, profile);
  if (approveWith) {
    // The approval leaves the professional's session alone.
    await legacyApi(`/professionals/approve-professional/${reply.id}`, { token: approveWith });
  }
  return {
    id: reply.id,
    email,
    storage: { 'professional-token': reply.token, 'professional-name': reply.name },
  };
}

const EVERY_DAY = 'Monday,Tuesday,Wednesday,Thursday,Friday,Saturday,Sunday';

/**
 * The old profile form's fields: plumbing, 50 km, every day, all day, based at `place` (in
 * Alberta unless its `province` and `provinceCode` say otherwise).
 */
export const profileAt = ({ province = 'Alberta', provinceCode = 'AB', ...place }) => ({
  description: 'Licensed plumber, emergencies day and night.',
  registered_address: `${place.office_address}, ${place.city} ${provinceCode} ${place.zipcode}`,
  ...place,
  state_or_province: province,
  availability_days: EVERY_DAY,
  availability_hours1: '00:00',
  availability_hours2: '23:59',
  radius_to_cater: '50',
  specialisation: 'Plumbing Services',
  qualification: 'Journeyman plumber',
  experience: '5-10',
  standard_fees: '30.00',
  sms_updates: 'no',
});

/** A professional's base in Calgary, near the requests `placeRequest` places. */
export const CALGARY = { office_address: '100 7 Ave SW', city: 'Calgary', zipcode: 'T2P 1J9' };

/** A professional's base in Montréal, near MONTREAL_PROPERTY (GST and QST apply there). */
export const MONTREAL = {
  office_address: '200 rue Sherbrooke Est',
  city: 'Montréal',
  zipcode: 'H2X 1C7',
  province: 'Québec',
  provinceCode: 'QC',
};

/** Where `placeRequest` places a request: a house in Calgary unless told. */
const CALGARY_PROPERTY = {
  address_1: '225 7 Ave SW',
  state_or_province: 'Alberta',
  city: 'Calgary',
  zipcode: 'T2P 2W3',
};

/** A flat in Montréal, for a request taxed with GST and QST. */
export const MONTREAL_PROPERTY = {
  address_1: '3600 boulevard Saint-Laurent',
  state_or_province: 'Québec',
  city: 'Montréal',
  zipcode: 'H2X 2V4',
};

/**
 * An approved member professional based at `place` (the offline test gateway's tok_visa
 * through the legacy purchase call), as a signed-in browser stores it.
 */
export async function memberProfessional(name, place, admin, { lang = 'en' } = {}) {
  const pro = await professional(name, {
    verify: true,
    approveWith: admin.admin_token,
    lang,
    profile: profileAt(place),
  });
  await legacyApi('/stripe/purchase', {
    body: { token: 'tok_visa', user_id: pro.id, coupon: '' },
    token: pro.storage['professional-token'],
  });
  return pro;
}

/**
 * The accounts, keyed by audience: `{ id, storage }` where storage is the localStorage entries
 * of the signed-in session (`public` stores nothing). The admin's id is the professional its
 * screens open; `requestId` is a request of the customer's, `quoteId` a quote on it,
 * `paymentId` the payment of one of the customer's hires.
 */
/** The admin of the stack, signed in: `admin_token` and `admin_name`. */
export const adminSession = () =>
  legacyApi('/admin/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });

/**
 * A plumbing request placed by the customer through the legacy call, at `property` (Calgary
 * unless told); its id. The same words twice are the same request (the call is idempotent):
 * tell them apart by `words`.
 */
export async function placeRequest(
  { id, storage },
  words = 'The bathroom tap drips day and night.',
  property = CALGARY_PROPERTY,
) {
  const placed = await legacyApi('/requests/place', {
    body: {
      specialisation: 'Plumbing Services',
      repair_explanation: words,
      repair_immediately: 'No',
      address_2: '',
      country: 'Canada',
      ...property,
      status: 1,
      user_id: id,
    },
    token: storage.token,
  });
  return placed._id;
}

/** A PDF small enough for a test: what a licence's file may be. */
const LICENCE_PDF = new Blob(['%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n'], {
  type: 'application/pdf',
});

/** Adds a licence to the professional's profile through the old form (sent back for review). */
async function addLicence({ id, storage }, label) {
  const form = new FormData();
  form.append('id', id);
  form.append('textValues[]', label);
  form.append('fileValues', LICENCE_PDF, 'licence.pdf');
  const response = await fetch(`${BASE_URL}/api/professionals/licenceUpdate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${storage['professional-token']}` },
    body: form,
  });
  if (response.status !== 200) {
    throw new Error(
      `/professionals/licenceUpdate answered ${response.status}: ${await response.text()}`,
    );
  }
}

/**
 * Two jobs of the customer's with the professional, each a request quoted and hired with the
 * test gateway's tok_visa: one in progress (its hold not captured yet) and one marked
 * completed (its payment captured), so the order lists hold an order to capture or release
 * and one to refund.
 */
async function hiredJobs(customerAccount, pro) {
  const requests = await Promise.all([
    placeRequest(customerAccount, 'The kitchen sink drains slowly and smells.'),
    placeRequest(customerAccount, 'Replace the water heater in the basement, 40 gallons.'),
  ]);
  for (const [index, requestId] of requests.entries()) {
    const quote = await legacyApi('/requests/apply', {
      body: { request_applied: requestId, time_of_service: String(index + 3), fees: '180.00' },
      token: pro.storage['professional-token'],
    });
    await legacyApi('/stripe/pay', {
      body: { token: 'tok_visa', application_id: quote._id },
      token: customerAccount.storage.token,
    });
  }
  await legacyApi(`/requests/mark-completed/${requests[1]}`, {
    token: customerAccount.storage.token,
  });
}

/** A field of type string in the protobuf wire format (field numbers and lengths below 128). */
const protoText = (field, value) => {
  const bytes = Buffer.from(value);
  return Buffer.concat([Buffer.from([(field << 3) | 2, bytes.length]), bytes]);
};

/**
 * A call over gRPC-web through the BFF with `token`, as the app makes it: `message` is the
 * request in the protobuf wire format; the reply's bytes as a latin1 string (frames and
 * trailers), or an error naming `method` when the call failed.
 */
async function grpcWeb(method, token, message) {
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  message.copy(frame, 5);
  const response = await fetch(`${BASE_URL}/${method}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/grpc-web+proto',
      'x-grpc-web': '1',
      authorization: `Bearer ${token}`,
    },
    body: frame,
  });
  const reply = Buffer.from(await response.arrayBuffer()).toString('latin1');
  const status = response.headers.get('grpc-status') ?? /grpc-status:\s*(\d+)/.exec(reply)?.[1];
  if (response.status !== 200 || status !== '0') {
    throw new Error(`${method} answered ${response.status}, grpc-status ${status}`);
  }
  return reply;
}

/**
 * A service account made by the admin over gRPC-web through the BFF, as the admin screen
 * does (no legacy path makes one), so /admin/service-accounts lists a row.
 */
async function serviceAccount(admin, name, scopes) {
  const message = Buffer.concat([protoText(1, name), ...scopes.map((s) => protoText(2, s))]);
  await grpcWeb(
    'repairs.accounts.v1.AccountsService/CreateServiceAccount',
    admin.admin_token,
    message,
  );
}

/**
 * The payment of one of the customer's hires (BillingService.ListOrders over gRPC-web: no
 * legacy path names a payment): the id inside the first order's `payment` (field 9, whose
 * `id` is field 1), for the receipt page.
 */
export async function customerPaymentId({ id, storage }) {
  const reply = await grpcWeb(
    'repairs.billing.v1.BillingService/ListOrders',
    storage.token,
    protoText(1, id),
  );
  // Field 1, 36 bytes ("\n$") after the tag of field 9 ("J") and the payment's length (one
  // byte, or two whose first is 0x80 or more).
  const follows = (at) =>
    reply[at - 2] === 'J' || (reply[at - 3] === 'J' && reply.charCodeAt(at - 2) >= 0x80);
  let paymentId = '';
  for (let at = reply.indexOf('\n$'); at !== -1 && !paymentId; at = reply.indexOf('\n$', at + 1)) {
    const id = reply.slice(at + 2, at + 38);
    if (follows(at) && /^[0-9a-f-]{36}$/.test(id)) paymentId = id;
  }
  if (!paymentId) throw new Error('ListOrders named no payment of the customer');
  return paymentId;
}

export async function createAccounts() {
  const admin = await adminSession();
  const [newCustomer, verifiedCustomer, newPro, pendingPro, approvedPro, reviewedPro] =
    await Promise.all([
      customer('New Customer', { verify: false }),
      customer('Casey Customer', { verify: true }),
      professional('New Professional', { verify: false }),
      professional('Pat Pending', { verify: true }),
      // A member in Calgary: the open requests, quotes, jobs and orders have rows.
      memberProfessional('Alex Approved', CALGARY, admin),
      // The one the admin screens open (and approve or deny): nobody uses its sessions.
      professional('Robin Reviewed', { verify: true, profile: profileAt(CALGARY) }),
    ]);
  // The request screens open the customer's own request; the quote screens (/view-application,
  // /hire) a member professional's quote on it.
  const [requestId, quoter] = await Promise.all([
    placeRequest(verifiedCustomer),
    memberProfessional('Quinn Quoter', CALGARY, admin),
    addLicence(reviewedPro, 'Journeyperson plumber certificate, Alberta'),
    hiredJobs(verifiedCustomer, approvedPro),
    serviceAccount(admin, 'Monthly report', ['orders.read', 'requests.read']),
    legacyApi('/coupons/create', {
      body: { code: `SPRING${RUN}`.toUpperCase(), discountPercent: '15' },
      token: admin.admin_token,
    }),
  ]);
  const quote = await legacyApi('/requests/apply', {
    body: { request_applied: requestId, time_of_service: '2', fees: '45.00' },
    token: quoter.storage['professional-token'],
  });
  // The service screens (/admin/edit-service/:id, /admin/delete-service/:id) open the first.
  const services = await (await fetch(`${BASE_URL}/api/services`)).json();
  return {
    requestId,
    quoteId: quote._id,
    // The receipt screen (/receipts/:id) opens one of the customer's hires.
    paymentId: await customerPaymentId(verifiedCustomer),
    serviceId: services[0]._id,
    public: { id: '', storage: {} },
    'customer-onboarding': newCustomer,
    customer: verifiedCustomer,
    'professional-onboarding': newPro,
    professional: pendingPro,
    'professional-approved': approvedPro,
    admin: {
      id: reviewedPro.id,
      storage: { admin_token: admin.admin_token, admin_name: admin.admin_name },
    },
  };
}
