//! The request limits the contracts state in protovalidate (`buf.validate`) annotations, as
//! Rust data generated from them by `build.rs` (never written by hand):
//!
//! - a constant per annotated bound, in a module per message: `send_message::TEXT_MAX_LEN`
//!   (a request message's module drops its `Request` suffix), `address::CITY_MAX_LEN`. Code
//!   that needs a bound reads it here, so the contract is its one source;
//! - [`MESSAGES`], every message a request can hold with each field's [`Check`], which the
//!   server walks over the encoded request before any handler runs.
//!
//! Lengths of text are in characters (Unicode code points), as protovalidate counts them;
//! lengths of bytes in bytes.

/// How a field's values are checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Check {
    /// A string: valid UTF-8, within its lengths in characters, a UUID when `uuid`.
    Text {
        min_len: Option<usize>,
        max_len: Option<usize>,
        uuid: bool,
    },
    /// Bytes within their lengths.
    Bytes {
        min_len: Option<usize>,
        max_len: Option<usize>,
    },
    /// An `int32` (`bits32`, read as protobuf does: the low 32 bits) or an `int64`.
    Int {
        bits32: bool,
        min: Option<i64>,
        max: Option<i64>,
    },
    /// A `double`; NaN is never within bounds.
    Double { min: Option<f64>, max: Option<f64> },
    /// An enum; with `defined`, only these numbers (`enum.defined_only`).
    Enum { defined: Option<&'static [i32]> },
    /// A message of the contracts, checked with its own fields' rules.
    Message { name: &'static str },
    /// A message from elsewhere (`google.protobuf.Timestamp`, ...): no rules.
    Opaque,
    /// Another scalar with no rules, by how it is encoded (to count packed items).
    Scalar(Wire),
}

/// How a scalar with no rules is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    Varint,
    Fixed32,
    Fixed64,
}

/// Bounds of a repeated field's number of items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Items {
    pub min: Option<usize>,
    pub max: Option<usize>,
}

/// A field of a message and its rules.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field {
    pub number: u32,
    /// The proto name, as field violations name it.
    pub name: &'static str,
    /// The check of each value (each item of a repeated field).
    pub check: Check,
    /// For a repeated field, the bounds of its number of items.
    pub items: Option<Items>,
    /// The field tracks presence (a message, a oneof member, `optional`): unset, its rules
    /// are not applied, unless it is `required`.
    pub presence: bool,
    /// `required`: the field must be set (for a field without presence: not its zero value).
    pub required: bool,
    /// `ignore = IGNORE_IF_ZERO_VALUE`: the zero value (an empty own id, "me") is not checked.
    pub ignore_if_zero: bool,
}

/// A message and its fields, by field number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Message {
    /// Full name without the leading dot: `repairs.marketplace.v1.SendMessageRequest`.
    pub name: &'static str,
    pub fields: &'static [Field],
}

impl Message {
    /// The field of a number, if the contract has it.
    pub fn field(&self, number: u32) -> Option<&'static Field> {
        self.fields.iter().find(|field| field.number == number)
    }
}

/// The rules of a message a request can hold, by full name (no leading dot).
pub fn message(name: &str) -> Option<&'static Message> {
    MESSAGES
        .binary_search_by(|message| message.name.cmp(name))
        .ok()
        .map(|i| &MESSAGES[i])
}

include!(concat!(env!("OUT_DIR"), "/limits.rs"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_names_its_bounds() {
        assert!(MESSAGES.windows(2).all(|w| w[0].name < w[1].name));
        let send = message("repairs.marketplace.v1.SendMessageRequest").unwrap();
        let text = send.fields.iter().find(|f| f.name == "text").unwrap();
        assert_eq!(
            text.check,
            Check::Text {
                min_len: None,
                max_len: Some(send_message::TEXT_MAX_LEN),
                uuid: false
            }
        );
        assert_eq!(send_message::TEXT_MAX_LEN, 4_000);
        assert_eq!(send_message::PHOTO_IDS_MAX_ITEMS, 4);
        assert_eq!(create_review::RATING_MIN, 1);
        assert_eq!(create_review::RATING_MAX, 5);
        assert!(message("repairs.type.v1.Address").is_some());
        assert!(message("google.protobuf.Timestamp").is_none());
    }
}
