//! Outside services behind traits, each with a production adapter and a local stand-in.
//! The default run uses the stand-ins; configuration picks the adapters.
//!
//! | provider | production adapter | local stand-in |
//! | --- | --- | --- |
//! | SMS | [`twilio::TwilioSms`] | [`sms::OutboxSms`] |
//! | email | [`smtp::SmtpEmail`] | [`email::OutboxEmail`] |
//! | Google sign-in | [`google_identity::GoogleJwksVerifier`] | [`google_identity::GoogleNotConfigured`] |
//! | Facebook login | [`facebook_identity::FacebookGraph`] | [`facebook_identity::FacebookNotConfigured`] |
//! | files | [`storage::S3Storage`] (FILES_BUCKET) | [`storage::LocalFolderStorage`] |
//! | geocoding | [`geocoding::photon::Photon`] (GEOCODER=photon), through [`geocoding::service::GeocoderService`] | [`geocoding::Gazetteer`] |
//! | distance (display) | [`osrm::OsrmDistance`] (roads) | [`distance::GreatCircle`] |
//! | payments | [`payments::stripe::StripeGateway`] | [`payments::test_gateway::TestGateway`] |
//! | Web Push | [`web_push::WebPushClient`] | the same client, to the tests' local push service |
//! | native push | [`native_push::apns::ApnsClient`], [`native_push::fcm::FcmClient`] | none: native devices are refused (the tests' local APNs and FCM otherwise) |
//! | translation | [`translation::libretranslate::LibreTranslate`], [`translation::deepl::DeepL`] | none: "not configured" |

pub mod distance;
pub mod email;
pub mod facebook_identity;
pub mod geocoding;
pub mod google_identity;
pub mod http_client;
pub mod identity;
pub mod native_push;
pub mod osrm;
pub mod outbox_file;
pub mod payments;
pub mod secret;
pub mod sms;
pub mod smtp;
pub mod storage;
pub mod translation;
pub mod twilio;
pub mod web_push;

pub use email::{EmailMessage, EmailSender};
pub use facebook_identity::{FacebookIdentity, FacebookUser};
pub use geocoding::{Gazetteer, Geocoder, Place, Precision, Suggestion, SuggestionKind};
pub use google_identity::{GoogleIdentity, GoogleUser};
pub use identity::IdentityError;
pub use payments::PaymentGateway;
pub use secret::SecretString;
pub use sms::{SmsMessage, SmsSender};
pub use storage::FileStorage;

/// Whether a failed send will fail the same way however often it is tried (a refused
/// address, a number that cannot receive texts): the outbox parks such a message at once.
pub fn is_permanent(error: &anyhow::Error) -> bool {
    if let Some(smtp) = error.downcast_ref::<smtp::SmtpError>() {
        return !smtp.is_retryable();
    }
    if let Some(twilio) = error.downcast_ref::<twilio::TwilioError>() {
        return !twilio.is_retryable();
    }
    if let Some(push) = error.downcast_ref::<web_push::PushError>() {
        return !push.is_retryable();
    }
    false
}
