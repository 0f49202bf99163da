//! Domain types: plain Rust values that cannot hold invalid data. Parse, don't validate.

pub mod address;
pub mod client_addr;
pub mod contacts;
pub mod conversation;
pub mod coordinates;
pub mod coupon;
pub mod email;
pub mod job_problem;
pub mod money;
pub mod native_device;
pub mod order;
pub mod password;
pub mod phone;
pub mod phone_code;
pub mod photo;
pub mod preferences;
pub mod professional;
pub mod province;
pub mod push;
pub mod quote;
pub mod repair_request;
pub mod review;
pub mod role;
pub mod search;
pub mod service;
pub mod tax_number;
pub mod text;
pub mod vetted;

pub use address::{Address, AddressForm, AddressProblems};
pub use client_addr::ClientAddr;
pub use coordinates::{Coordinates, great_circle_meters, to_whole_km};
pub use coupon::{CouponCode, DiscountPercent};
pub use email::Email;
pub use money::{Cents, Currency, Money, MoneyError};
pub use native_device::{DeviceToken, NativePlatform};
pub use order::{OrderChange, OrderStage};
pub use password::NewPassword;
pub use phone::Phone;
pub use phone_code::PhoneCode;
pub use photo::{PhotoKeys, StoredPhoto};
pub use preferences::{Language, SmsUpdates};
pub use professional::{
    Experience, PostalCode, ProfessionalState, ProfileEdit, RadiusKm, TimeOfDay, Weekday,
};
pub use province::Province;
pub use push::{PushEndpoint, PushHosts, PushKeys};
pub use quote::{QuoteChange, QuoteState, QuoteTaxTreatment};
pub use repair_request::{RepairRequestState, RequestChange, Urgency, customer_release_from};
pub use review::{Rating, ReviewText};
pub use role::Role;
pub use search::PeopleSearch;
pub use service::{ServiceDescription, ServiceName};
pub use tax_number::{GstHstNumber, QstNumber};
pub use text::PersonName;
pub use vetted::{VettedEdit, VettedProfile};
