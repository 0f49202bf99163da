//! What a payment is made of: the amount before tax, the sales taxes on it (the rules are
//! [`crate::tax`]'s) and the total the card is charged; and the platform as the seller of
//! what it sells professionals. Amounts in integer cents throughout.

use crate::tax::Registrations;

/// The platform as a seller: the name its receipts give and the registrations it collects
/// taxes under (`Config::seller`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seller {
    pub name: String,
    pub registrations: Registrations,
}
