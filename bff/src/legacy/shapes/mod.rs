//! The old app's shapes, one module per record kind: its records (user, professional, service,
//! coupon, request, application), its codes (status numbers, 'na'/'yes'/'no', 'en'/'eng'/'fr',
//! '0'/'1'), and its text formats (fees "30.00", days "Monday, Tuesday", province names,
//! createdAt). Pure conversions, no rules: a value the BFF cannot read is passed on as "not
//! given" and the server says what is wrong.

mod applications;
mod coupons;
mod formats;
mod professionals;
mod requests;
mod services;
mod users;

pub use applications::{LegacyApplication, LegacyQuotedRequest, minutes_from_hours};
pub use coupons::LegacyCoupon;
pub use formats::{cad, fee_cents, province_code, time_text, upload_content_type};
pub use professionals::{
    LegacyProfessional, days_from_text, experience_from_text, home_address_line, list_values,
    membership_status, radius_km, state_from_status, status_number,
};
pub use requests::{
    LegacyRequest, country_code, request_state_from_status, request_status_number,
    urgency_from_text, urgency_text,
};
pub use services::{LegacyService, ServiceLanguage};
pub use users::{
    LegacyUser, e164, language_from_text, otp_verified, sms_from_text, sms_text, split_phone,
};
