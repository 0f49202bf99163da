//! Content rules: the pages' texts, the contact inbox and the catalogue's archive (and, as
//! they land, the rest of the catalogue's editing and translation).

pub mod contact;
pub mod pages;
pub mod services;
