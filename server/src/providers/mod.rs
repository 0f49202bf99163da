//! Outside services behind traits, each with a production adapter and a local stand-in.
//! The default run uses the stand-ins; configuration picks the adapters.

pub mod email;
pub mod outbox_file;
pub mod sms;

pub use email::{EmailMessage, EmailSender};
pub use sms::{SmsMessage, SmsSender};
