// Real accounts for the end-to-end tests, made through the legacy `/api` paths of the BFF:
// one per audience of src/app/route-views.ts, each with what a browser stores once signed in.
import { ADMIN_EMAIL, ADMIN_PASSWORD, freshPhone, legacyApi, phoneCode, RUN } from './stack.mjs';

const PASSWORD = 'a-good-password-1';

/** Sends a code to a fresh number and verifies it with the code read from the outbox. */
async function verifyPhone({ id, token }) {
  const phone = freshPhone();
  const number = { phoneNumber: phone.national, countryCode: '+1' };
  await legacyApi('/sms/send-otp', { body: { id, ...number, sms_updates: 'no' }, token });
  const otp = await phoneCode(phone.e164);
  await legacyApi('/sms/verify-otp', { body: { id, otp, ...number, lang: 'en' }, token });
}

async function customer(name, { verify }) {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${RUN}@example.ca`;
  const reply = await legacyApi('/users', { body: { name, email, password: PASSWORD } });
  if (verify) await verifyPhone(reply);
  return { id: reply.id, storage: { token: reply.token, username: reply.name } };
}

/**
 * A professional signed up through the legacy API, phone verified when `verify`, approved by
 * the admin whose token is `approveWith`; `lang` is the account's language.
 */
export async function professional(name, { verify, approveWith, lang = 'en' }) {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${RUN}@example.ca`;
  const reply = await legacyApi('/professionals', {
    body: { name, email, password: PASSWORD, lang },
  });
  if (verify) await verifyPhone(reply);
  let { token } = reply;
  if (approveWith) {
    await legacyApi(`/professionals/approve-professional/${reply.id}`, { token: approveWith });
    // The admin's decision ended the sessions the professional had: sign in again.
    ({ token } = await legacyApi('/professionals/login', { body: { email, password: PASSWORD } }));
  }
  return {
    id: reply.id,
    storage: { 'professional-token': token, 'professional-name': reply.name },
  };
}

/**
 * The accounts, keyed by audience: `{ id, storage }` where storage is the localStorage entries
 * of the signed-in session (`public` stores nothing). The admin's id is the professional its
 * screens open.
 */
/** The admin of the stack, signed in: `admin_token` and `admin_name`. */
export const adminSession = () =>
  legacyApi('/admin/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });

export async function createAccounts() {
  const admin = await adminSession();
  const [newCustomer, verifiedCustomer, newPro, pendingPro, approvedPro, reviewedPro] =
    await Promise.all([
      customer('New Customer', { verify: false }),
      customer('Casey Customer', { verify: true }),
      professional('New Professional', { verify: false }),
      professional('Pat Pending', { verify: true }),
      professional('Alex Approved', { verify: true, approveWith: admin.admin_token }),
      // The one the admin screens open (and approve): its sessions may end, nobody uses them.
      professional('Robin Reviewed', { verify: true }),
    ]);
  return {
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
