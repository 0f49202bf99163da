//! The address field's autocomplete: postal codes, postal areas and places whose code or
//! name starts with what was typed. The data is small (1,650 areas, a few thousand places),
//! so a scan per query costs microseconds and needs no extra index.

use super::{Gazetteer, forward_sortation_area, names::fold};
use crate::providers::geocoding::{Place, Suggestion, SuggestionKind};

impl Gazetteer {
    /// Postal suggestions when the query looks like the start of a postal code (a letter
    /// then a digit), place names otherwise; queries under two characters find nothing.
    pub fn suggestions(
        &self,
        query: &str,
        province: Option<&str>,
        limit: usize,
    ) -> Vec<Suggestion> {
        let compact: String = query
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let in_province = |place: &Place| province.is_none_or(|code| place.province == code);
        let postal = {
            let mut chars = compact.chars();
            matches!((chars.next(), chars.next()), (Some(a), Some(d)) if a.is_ascii_alphabetic() && d.is_ascii_digit())
        };
        if postal {
            self.postal_suggestions(&compact, &in_province, limit)
        } else {
            self.place_suggestions(query, &in_province, limit)
        }
    }

    fn postal_suggestions(
        &self,
        compact: &str,
        in_province: &dyn Fn(&Place) -> bool,
        limit: usize,
    ) -> Vec<Suggestion> {
        // Postal codes are ASCII (and slicing by bytes below needs it).
        if !compact.is_ascii() {
            return Vec::new();
        }
        // A whole code: that code, in its town; one the data lacks, as typed in its area.
        if compact.len() == 6 {
            let Some(fsa) = forward_sortation_area(compact) else {
                return Vec::new();
            };
            let code = format!("{} {}", &compact[..3], &compact[3..]);
            let town = match self.full_codes.find(compact) {
                Some(found) => found.town.to_owned(),
                None => self.town_of_area(&fsa).unwrap_or_default().to_owned(),
            };
            return self
                .areas
                .get(&fsa)
                .filter(|place| in_province(place))
                .map(|place| vec![postal_code_suggestion(code, town, &place.province)])
                .unwrap_or_default();
        }
        // An area and part of the rest ("T2P1"): the full codes it starts, in order.
        if compact.len() > 3 {
            let Some(area) = self.areas.get(&compact[..3]).filter(|a| in_province(a)) else {
                return Vec::new();
            };
            return self
                .full_codes
                .starting_with(compact, limit)
                .into_iter()
                .map(|found| {
                    postal_code_suggestion(found.code, found.town.to_owned(), &area.province)
                })
                .collect();
        }
        // The start of an area ("T2") or an area: the areas.
        let prefix = compact;
        let mut found: Vec<(&String, &Place)> = self
            .areas
            .iter()
            .filter(|(fsa, place)| fsa.starts_with(prefix) && in_province(place))
            .collect();
        found.sort_by(|a, b| a.0.cmp(b.0));
        found
            .into_iter()
            .take(limit)
            .map(|(fsa, place)| Suggestion {
                kind: SuggestionKind::PostalArea,
                display_name: format!("{fsa} ({}, {})", place.name, place.province),
                postal_code: fsa.clone(),
                city: self.town_of_area(fsa).unwrap_or_default().to_owned(),
                province: place.province.clone(),
                line1: String::new(),
            })
            .collect()
    }

    fn place_suggestions(
        &self,
        query: &str,
        in_province: &dyn Fn(&Place) -> bool,
        limit: usize,
    ) -> Vec<Suggestion> {
        let wanted = fold(query);
        if wanted.chars().count() < 2 {
            return Vec::new();
        }
        let mut found: Vec<&(Place, u64)> = self
            .places
            .iter()
            .filter(|(name, _)| name.starts_with(&wanted))
            .flat_map(|(_, places)| places.iter())
            .filter(|(place, _)| in_province(place))
            .collect();
        // The likeliest first: "cal" means Calgary before Calahoo.
        found.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.name.cmp(&b.0.name)));
        found
            .into_iter()
            .take(limit)
            .map(|(place, _)| Suggestion {
                kind: SuggestionKind::Place,
                display_name: format!("{}, {}", place.name, place.province),
                postal_code: String::new(),
                city: place.name.clone(),
                province: place.province.clone(),
                line1: String::new(),
            })
            .collect()
    }
}

fn postal_code_suggestion(code: String, town: String, province: &str) -> Suggestion {
    Suggestion {
        kind: SuggestionKind::PostalCode,
        display_name: format!("{code}, {town}, {province}"),
        postal_code: code,
        city: town,
        province: province.to_owned(),
        line1: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{super::shipped_for_tests as gazetteer, *};

    #[test]
    fn the_start_of_a_postal_code_lists_its_areas_in_order() {
        let found = gazetteer().suggestions("t2", None, 5);
        assert_eq!(found.len(), 5);
        assert!(found.iter().all(|s| s.kind == SuggestionKind::PostalArea));
        assert!(found.iter().all(|s| s.postal_code.starts_with("T2")));
        assert!(
            found
                .windows(2)
                .all(|w| w[0].postal_code < w[1].postal_code)
        );
        let area = gazetteer().suggestions("T2P", None, 10);
        assert_eq!(area.len(), 1);
        assert_eq!(area[0].postal_code, "T2P");
    }

    #[test]
    fn an_area_and_more_lists_its_full_codes_in_order() {
        let found = gazetteer().suggestions("t2p 1j", None, 5);
        assert_eq!(found.len(), 5);
        assert!(found.iter().all(|s| s.kind == SuggestionKind::PostalCode));
        assert!(found.iter().all(|s| s.postal_code.starts_with("T2P 1J")));
        assert_eq!(found[0].city, "Calgary");
        assert!(
            found
                .windows(2)
                .all(|w| w[0].postal_code < w[1].postal_code)
        );
        assert!(gazetteer().suggestions("T2P 1", Some("QC"), 5).is_empty());
        assert!(gazetteer().suggestions("T2é1", None, 5).is_empty());
    }

    #[test]
    fn a_whole_postal_code_is_offered_as_typed_in_its_area() {
        let found = gazetteer().suggestions("t2p1j9", None, 10);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].kind, SuggestionKind::PostalCode);
        assert_eq!(found[0].postal_code, "T2P 1J9");
        assert_eq!(found[0].province, "AB");
        assert_eq!(found[0].display_name, "T2P 1J9, Calgary, AB");
        assert!(gazetteer().suggestions("D1A 1A1", None, 10).is_empty());
        assert!(
            gazetteer()
                .suggestions("T2P 1J9", Some("QC"), 10)
                .is_empty()
        );
    }

    #[test]
    fn postal_suggestions_fill_the_town_not_the_district() {
        let city = |query: &str| gazetteer().suggestions(query, None, 1)[0].city.clone();
        assert_eq!(city("T2P 1J9"), "Calgary");
        assert_eq!(city("M5V"), "Toronto");
        assert_eq!(city("H2X"), "Montréal");
        assert_eq!(city("L5B"), "Mississauga");
        assert_eq!(city("A1A"), "St. John's");
        // A rural area spans many towns: the person types theirs, or its full code names it.
        assert_eq!(city("A0A"), "");
        assert_eq!(city("A0A 0A1"), "Avondale");
    }

    #[test]
    fn place_names_match_by_prefix_the_biggest_first() {
        let found = gazetteer().suggestions("calg", None, 3);
        assert_eq!(found[0].city, "Calgary");
        assert_eq!(found[0].display_name, "Calgary, AB");
        let quebec = gazetteer().suggestions("mont", Some("QC"), 20);
        assert!(quebec.iter().any(|s| s.city == "Montréal"));
        assert!(quebec.iter().all(|s| s.province == "QC"));
        assert!(gazetteer().suggestions("c", None, 10).is_empty());
        assert_eq!(gazetteer().suggestions("saint", None, 4).len(), 4);
    }
}
