//! Content rules: the pages' texts, the contact inbox, the catalogue's archive and
//! translation (and, as they land, the rest of the catalogue's editing).

pub mod contact;
pub mod pages;
pub mod services;
