//! Services as the old app read them, in English or in French.

use repairs_proto::content;
use serde::Serialize;

use super::formats::{file_path, time_text};
use crate::legacy::text::{english, french};

/// Which language a service record is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServiceLanguage {
    English,
    French,
}

/// A service as the old app read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegacyService {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub description: String,
    /// The icon's link, "" for the default icon.
    pub photo: String,
    #[serde(rename = "createdAt")]
    pub created_at: Option<String>,
}

impl LegacyService {
    pub fn new(service: &content::Service, language: ServiceLanguage) -> Self {
        let text = match language {
            ServiceLanguage::English => english,
            ServiceLanguage::French => french,
        };
        Self {
            id: service.id.clone(),
            name: text(service.name.as_ref()),
            description: text(service.description.as_ref()),
            photo: file_path(&service.icon_url),
            created_at: time_text(service.create_time.as_ref()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legacy::catalogue::tests::service;

    #[test]
    fn a_service_reads_in_either_language() {
        let service = service("id-1", "Plumbing Services", "Services de plomberie");
        let en = LegacyService::new(&service, ServiceLanguage::English);
        let fr = LegacyService::new(&service, ServiceLanguage::French);
        assert_eq!(en.name, "Plumbing Services");
        assert_eq!(fr.name, "Services de plomberie");
        // An untranslated description falls back to English.
        assert_eq!(fr.description, "Plumbing Services text");
        let json = serde_json::to_value(&en).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "_id": "id-1",
                "name": "Plumbing Services",
                "description": "Plumbing Services text",
                "photo": "/files/icon?exp=1&sig=ab",
                "createdAt": "1970-01-01T00:00:00.000Z",
            })
        );
    }
}
