//! The service catalogue as the old clients name it: the one mapping from what they send (ids,
//! full English or French names, or the original client's short names such as "Plumber") to
//! service ids, and from ids back to the English names the old records show. Every legacy call
//! that names a service goes through [`Catalogue`], and so through the BFF's short-lived copy
//! of it ([`super::rpc::CatalogueCache`]).

use std::sync::Arc;

use repairs_proto::content;

use super::auth::LegacyToken;
use super::error::ApiError;
use super::rpc::Rpc;
use super::text::{english, fold, split_list};

/// The original client's short service names and the catalogue's English name each stands for.
const SHORT_NAMES: [(&str, &str); 8] = [
    ("Plumber", "Plumbing Services"),
    ("Carpenter", "Carpenter Services"),
    ("Pest Control", "Pest Control Services"),
    ("Roofing", "Roofing Services"),
    ("AC Repair", "AC Repair Services"),
    ("Electrician", "Electrician Services"),
    ("Cleaning and Disinfection", "Cleaning and Disinfection"),
    ("Electrical Appliance Repair", "Electrical Appliance Repair"),
];

/// The services as the server lists them: ids <-> names. Shared, so a copy costs nothing.
#[derive(Debug, Clone, Default)]
pub struct Catalogue(Arc<Vec<content::Service>>);

impl Catalogue {
    pub fn new(services: Vec<content::Service>) -> Self {
        Self(Arc::new(services))
    }

    /// The whole active catalogue, as the server listed it at most the cache's TTL ago.
    pub async fn load(rpc: &Rpc) -> Result<Self, ApiError> {
        let services = rpc
            .catalogue_cache()
            .get(|| {
                // The same answer for every caller, so one caller's load serves all: it is
                // asked for without the caller's token, keeping the request id and client.
                let anonymous = rpc.with_token(LegacyToken::default());
                async move {
                    let request = anonymous.request(content::ListServicesRequest::default());
                    let reply = anonymous.content().list_services(request).await?;
                    Ok(reply.into_inner().services)
                }
            })
            .await?;
        Ok(Self(services))
    }

    /// After this BFF changed the catalogue: its next load asks the server, so the caller
    /// sees the change at once.
    pub fn changed(rpc: &Rpc) {
        rpc.catalogue_cache().invalidate();
    }

    /// The services, in the catalogue's order.
    pub fn services(&self) -> &[content::Service] {
        &self.0
    }

    /// "Plumbing Services, Roofing Services": the English names of `ids` (an id no longer in
    /// the catalogue is left out).
    pub fn english_names(&self, ids: &[String]) -> String {
        ids.iter()
            .filter_map(|id| self.english_name(id))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The English name of the service `id` ("Plumbing Services"); `None` when the catalogue
    /// no longer has it.
    pub fn english_name(&self, id: &str) -> Option<String> {
        self.0
            .iter()
            .find(|service| service.id == id)
            .map(|service| english(service.name.as_ref()))
    }

    /// The id of the service `name` names: its id, a short name of the original client, or
    /// an English or French name (any case and accents, with or without a trailing
    /// "Services"). `None` when it names no service.
    pub fn id_of(&self, name: &str) -> Option<&str> {
        let name = name.trim();
        let folded = fold(name);
        let full = SHORT_NAMES
            .iter()
            .find(|(short, _)| fold(short) == folded)
            .map_or(folded, |(_, full)| fold(full));
        let without_suffix = |text: &str| text.trim_end_matches(" services").to_owned();
        let wanted = without_suffix(&full);
        self.0
            .iter()
            .find(|service| {
                let names = service.name.clone().unwrap_or_default();
                service.id.eq_ignore_ascii_case(name)
                    || [names.en, names.fr]
                        .iter()
                        .any(|known| without_suffix(&fold(known)) == wanted)
            })
            .map(|service| service.id.as_str())
    }

    /// Service ids from the values of an old form, each a name (see [`Self::id_of`]) or a
    /// comma-separated list of them. A value that names no service is passed on as it is, and
    /// the server refuses it with its own message.
    pub fn ids(&self, values: &[String]) -> Vec<String> {
        split_list(values)
            .map(|item| self.id_of(item).unwrap_or(item).to_owned())
            .collect()
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use prost_types::Timestamp;
    use repairs_proto::types::LocalizedText;

    pub(in crate::legacy) fn service(id: &str, en: &str, fr: &str) -> content::Service {
        content::Service {
            id: id.to_owned(),
            name: Some(LocalizedText {
                en: en.to_owned(),
                fr: fr.to_owned(),
            }),
            description: Some(LocalizedText {
                en: format!("{en} text"),
                fr: String::new(),
            }),
            icon_url: "http://127.0.0.1:8080/files/icon?exp=1&sig=ab".to_owned(),
            create_time: Some(Timestamp {
                seconds: 0,
                nanos: 0,
            }),
            ..Default::default()
        }
    }

    pub(in crate::legacy) fn catalogue() -> Catalogue {
        Catalogue::new(vec![
            service("id-1", "Plumbing Services", "Services de plomberie"),
            service("id-4", "Roofing Services", "Services de toiture"),
            service(
                "id-7",
                "Cleaning and Disinfection",
                "Nettoyage et désinfection",
            ),
        ])
    }

    #[test]
    fn specialisations_by_name_or_id() {
        let catalogue = catalogue();
        let ids = catalogue.ids(&[
            "Plumbing Services, services de toiture".to_owned(),
            "Cleaning and Disinfection Services".to_owned(),
            "ID-1".to_owned(),
            "Gardening".to_owned(),
        ]);
        assert_eq!(ids, ["id-1", "id-4", "id-7", "id-1", "Gardening"]);
        assert_eq!(
            catalogue.english_names(&["id-1".to_owned(), "id-4".to_owned(), "gone".to_owned()]),
            "Plumbing Services, Roofing Services"
        );
    }

    #[test]
    fn the_original_clients_short_names() {
        let catalogue = catalogue();
        assert_eq!(
            catalogue.ids(&[
                "Plumber,Roofing".to_owned(),
                " cleaning and disinfection".to_owned()
            ]),
            ["id-1", "id-4", "id-7"]
        );
        assert_eq!(catalogue.id_of("PLUMBER"), Some("id-1"));
        assert_eq!(catalogue.id_of("Plumb"), None);
    }
}
