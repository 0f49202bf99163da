//! What is wrong with one value, in the words a field violation says it ("must be at most
//! 4,000 characters"), by the rule the contract gives its field.

use repairs_proto::limits::Check;

/// One value of a field to check (an item, for a repeated one).
#[derive(Clone, Copy)]
pub enum Scalar<'a> {
    /// Absent: the zero value of the field's type.
    Zero,
    Varint(u64),
    Fixed64(u64),
    Fixed32(u32),
    Delimited(&'a [u8]),
}

/// What is wrong with one value, if anything.
pub fn problem(check: Check, value: Scalar<'_>) -> Option<String> {
    let delimited = |value| match value {
        Scalar::Delimited(bytes) => bytes,
        _ => &[],
    };
    match check {
        Check::Text {
            min_len,
            max_len,
            uuid,
        } => {
            let Ok(text) = std::str::from_utf8(delimited(value)) else {
                return Some("this text is not valid UTF-8".to_owned());
            };
            text_problem(text, min_len, max_len, uuid)
        }
        Check::Bytes { min_len, max_len } => {
            let len = delimited(value).len();
            if let Some(max) = max_len.filter(|&max| len > max) {
                Some(format!("must be at most {}", size(max)))
            } else {
                min_len.filter(|&min| len < min).map(|min| {
                    if min == 1 {
                        "must not be empty".to_owned()
                    } else {
                        format!("must be at least {}", size(min))
                    }
                })
            }
        }
        Check::Int { bits32, min, max } => {
            let raw = match value {
                Scalar::Varint(v) => v,
                _ => 0,
            };
            // An int32 is the low 32 bits of its varint, an int64 all of it.
            let n = if bits32 {
                i64::from(raw as u32 as i32)
            } else {
                raw as i64
            };
            let outside = min.is_some_and(|min| n < min) || max.is_some_and(|max| n > max);
            outside.then(|| range(min.map(signed), max.map(signed)))
        }
        Check::Double { min, max } => {
            let n = match value {
                Scalar::Fixed64(bits) => f64::from_bits(bits),
                _ => 0.0,
            };
            // NaN is within no bounds.
            let within = min.is_none_or(|min| n >= min) && max.is_none_or(|max| n <= max);
            (!within).then(|| range(min.map(|m| m.to_string()), max.map(|m| m.to_string())))
        }
        Check::Enum {
            defined: Some(defined),
        } => {
            let n = match value {
                Scalar::Varint(v) => v as u32 as i32,
                _ => 0,
            };
            (defined.binary_search(&n).is_err())
                .then(|| "must be one of the values the contract lists".to_owned())
        }
        Check::Enum { defined: None }
        | Check::Message { .. }
        | Check::Opaque
        | Check::Scalar(_) => None,
    }
}

fn text_problem(
    text: &str,
    min_len: Option<usize>,
    max_len: Option<usize>,
    uuid: bool,
) -> Option<String> {
    let bytes = text.len();
    // A character takes one to four bytes: only a text near a bound needs counting.
    let chars = || text.chars().count();
    if let Some(max) = max_len.filter(|&max| bytes > max && chars() > max) {
        return Some(format!(
            "must be at most {} characters",
            thousands(max as u64)
        ));
    }
    if let Some(min) = min_len.filter(|&min| bytes < min.saturating_mul(4) && chars() < min) {
        return Some(if min == 1 {
            "must not be empty".to_owned()
        } else {
            format!("must be at least {} characters", thousands(min as u64))
        });
    }
    (uuid && !is_uuid(text)).then(|| "must be an id (a UUID)".to_owned())
}

/// A UUID in its text form (protovalidate's `string.uuid`): 8-4-4-4-12 hexadecimal digits.
fn is_uuid(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => *b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

fn range(min: Option<String>, max: Option<String>) -> String {
    match (min, max) {
        (Some(min), Some(max)) => format!("must be from {min} to {max}"),
        (Some(min), None) => format!("must be at least {min}"),
        (None, Some(max)) => format!("must be at most {max}"),
        (None, None) => "is not allowed".to_owned(),
    }
}

fn signed(n: i64) -> String {
    let digits = thousands(n.unsigned_abs());
    if n < 0 { format!("-{digits}") } else { digits }
}

/// 4000 -> "4,000", as the field violations write numbers.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A size in bytes, as people read it: "1 MiB", "256 KiB", "1,000 bytes".
pub fn size(bytes: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{} bytes", thousands(bytes as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cases of protovalidate's conformance suite (v1.2, `cases_strings.go`,
    /// `cases_enum.go`) for the rule kinds the contracts use, with the suite's values.
    #[test]
    fn agrees_with_protovalidates_conformance_cases() {
        let uuid = |text: &str| text_problem(text, None, None, true).is_none();
        for valid in [
            "00000000-0000-0000-0000-000000000000",
            "b45c0c80-8880-11e9-a5b1-000000000000",
            "B45C0C80-8880-11E9-A5B1-000000000000",
            "a3bb189e-8bf9-3888-9912-ace4e6543002",
            "8B208305-00E8-4460-A440-5E0DCD83BB0A",
            "a6edc906-2f9f-5fb2-a373-efac406f0ef2",
        ] {
            assert!(uuid(valid), "{valid}");
        }
        for invalid in [
            "",
            "foobar",
            "ffffffff-ffff-ffff-ffff-fffffffffffff",
            "8B20830500E84460A4405E0DCD83BB0A",
            "8b20830500e84460a4405e0dcd83bb0a",
        ] {
            assert!(!uuid(invalid), "{invalid}");
        }
        // StringMinLen (3), StringMaxLen (5).
        let min = |text: &str| text_problem(text, Some(3), None, false).is_none();
        assert!(min("foo") && min("foobar") && !min("pb"));
        let max = |text: &str| text_problem(text, None, Some(5), false).is_none();
        assert!(max("proto") && max("buf") && !max("validate"));
        // Characters, not bytes: five two-byte characters are within 5.
        assert!(max("ééééé") && !max("éééééé"));
        // EnumDefined: unspecified and a listed value pass, an unknown number does not.
        let defined = Check::Enum {
            defined: Some(&[0, 1, 2]),
        };
        assert!(problem(defined, Scalar::Zero).is_none());
        assert!(problem(defined, Scalar::Varint(1)).is_none());
        assert!(problem(defined, Scalar::Varint(i32::MAX as u64)).is_some());
        // A negative enum number travels as ten bytes of varint.
        assert!(problem(defined, Scalar::Varint(-1i64 as u64)).is_some());
    }

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(thousands(4_000), "4,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(100_000_000), "100,000,000");
        assert_eq!(signed(-180), "-180");
        assert_eq!(size(1024 * 1024), "1 MiB");
        assert_eq!(size(256 * 1024), "256 KiB");
        assert!(is_uuid("0190a0b1-7c3d-7e5f-8a9b-0c1d2e3f4a5b"));
        assert!(!is_uuid("0190a0b1-7c3d-7e5f-8a9b-0c1d2e3f4a5"));
    }
}
