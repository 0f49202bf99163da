//! Content rules: the landing pages' texts (and, as they land, the catalogue, the contact
//! inbox and translation).

pub mod contact;
pub mod pages;
