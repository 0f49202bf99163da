//! What a customer fills in to place or edit a request, checked field by field.

use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::{
    domain::{Address, AddressForm, Urgency, text::bounded_text},
    error::{ApiError, ApiResult, Violations},
};

/// The form as typed (transport-free); field names are the contract's paths.
#[derive(Debug, Clone, Default)]
pub struct DraftForm {
    pub service_id: String,
    pub description: String,
    pub urgency: Option<Urgency>,
    pub address: AddressForm,
}

/// A checked draft: every field within its bounds; the service is checked against the
/// catalogue and the address placed on the map by the caller (the city places an address
/// without a postal code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    pub service_id: Uuid,
    pub description: String,
    pub urgency: Urgency,
    pub address: Address,
}

/// "What do you need to fix?" is at most 5000 characters, as the contract says.
const MAX_DESCRIPTION: usize = repairs_proto::limits::repair_request_draft::DESCRIPTION_MAX_LEN;

impl Draft {
    pub fn parse(form: &DraftForm) -> ApiResult<Self> {
        let mut v = Violations::default();
        let service_id = v.check(
            "draft.service_id",
            Uuid::parse_str(form.service_id.trim())
                .map_err(|_| "choose a service from the list".to_owned()),
        );
        let description = v.check(
            "draft.description",
            bounded_text(&form.description, "what you need fixed", MAX_DESCRIPTION),
        );
        let urgency = v.check(
            "draft.urgency",
            form.urgency
                .ok_or_else(|| "say whether you need help right away".to_owned()),
        );
        let address = v.check_parts("draft.address", Address::parse(&form.address));
        match (service_id, description, urgency, address) {
            (Some(service_id), Some(description), Some(urgency), Some(address)) => Ok(Self {
                service_id,
                description,
                urgency,
                address,
            }),
            _ => Err(ApiError::invalid_fields(v.0)),
        }
    }

    /// A digest of the draft, so a reused idempotency key with another draft is told apart
    /// from a retry. Fields are length-prefixed so no two drafts share an encoding.
    pub fn digest(&self) -> [u8; 32] {
        let mut hash = Sha256::new();
        let service = self.service_id.to_string();
        let address = &self.address;
        let postal = address.postal_code_str().unwrap_or_default();
        for field in [
            service.as_str(),
            self.description.as_str(),
            self.urgency.as_str(),
            address.line1.as_str(),
            address.line2.as_str(),
            address.city.as_str(),
            address.province.as_str(),
            postal,
        ] {
            hash.update((field.len() as u64).to_be_bytes());
            hash.update(field.as_bytes());
        }
        hash.finalize().into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> DraftForm {
        DraftForm {
            service_id: "0190a6c0-0000-7000-8000-000000000001".into(),
            description: "  The kitchen sink leaks  ".into(),
            urgency: Some(Urgency::Immediate),
            address: AddressForm {
                line1: "100 8 Ave SW".into(),
                line2: String::new(),
                city: "Calgary".into(),
                province: "Alberta".into(),
                postal_code: "t2p1j9".into(),
            },
        }
    }

    fn with_address(address: AddressForm) -> DraftForm {
        DraftForm { address, ..form() }
    }

    #[test]
    fn a_good_form_is_trimmed_and_normalised() {
        let draft = Draft::parse(&form()).unwrap();
        assert_eq!(draft.description, "The kitchen sink leaks");
        assert_eq!(draft.address.province, "AB");
        assert_eq!(draft.address.postal_code_str(), Some("T2P 1J9"));
    }

    #[test]
    fn every_bad_field_is_named() {
        let bad = DraftForm {
            service_id: "plumbing".into(),
            description: " ".into(),
            urgency: None,
            address: AddressForm {
                line1: String::new(),
                province: "Narnia".into(),
                postal_code: "12345".into(),
                ..form().address
            },
        };
        let Err(ApiError::InvalidArgument { violations, .. }) = Draft::parse(&bad) else {
            panic!("refused");
        };
        let fields: Vec<&str> = violations.iter().map(|v| v.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "draft.service_id",
                "draft.description",
                "draft.urgency",
                "draft.address.line1",
                "draft.address.province",
                "draft.address.postal_code"
            ]
        );
    }

    #[test]
    fn the_digest_changes_with_any_field_and_not_with_spacing() {
        let a = Draft::parse(&form()).unwrap();
        let spaced = Draft::parse(&with_address(AddressForm {
            postal_code: "T2P 1J9".into(),
            ..form().address
        }))
        .unwrap();
        assert_eq!(a.digest(), spaced.digest());
        let other = Draft::parse(&with_address(AddressForm {
            line2: "Unit 4".into(),
            ..form().address
        }))
        .unwrap();
        assert_ne!(a.digest(), other.digest());
        let no_postal = Draft::parse(&with_address(AddressForm {
            postal_code: String::new(),
            ..form().address
        }))
        .unwrap();
        assert_eq!(no_postal.address.postal_code, None);
    }
}
