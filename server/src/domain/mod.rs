//! Domain types: plain Rust values that cannot hold invalid data. Parse, don't validate.

pub mod email;
pub mod role;

pub use email::Email;
pub use role::Role;
