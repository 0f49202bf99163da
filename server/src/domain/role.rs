//! The three kinds of account.

use std::{fmt, str::FromStr};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Customer,
    Professional,
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Customer => "customer",
            Role::Professional => "professional",
            Role::Admin => "admin",
        }
    }

    /// The kind of account in a sentence, with its article: "an admin account". The status
    /// messages are English (clients translate by reason code), so English's article is the
    /// one to get right.
    pub fn account_phrase(self) -> &'static str {
        match self {
            Role::Customer => "a customer account",
            Role::Professional => "a professional account",
            Role::Admin => "an admin account",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "customer" => Ok(Role::Customer),
            "professional" => Ok(Role::Professional),
            "admin" => Ok(Role::Admin),
            _ => Err(()),
        }
    }
}
