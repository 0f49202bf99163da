//! Quotes as the old app read them ("applications"): the estimate in hours, the fee as
//! text, and the joined records the list and view screens showed.

use repairs_proto::marketplace as pb;
use serde::Serialize;

use super::formats::{fee_text, time_text};
use super::requests::LegacyRequest;

/// "1.5" for 90 minutes, "2" for 120: the old form's hours.
pub fn hours_text(minutes: i32) -> String {
    let hours = f64::from(minutes) / 60.0;
    let text = format!("{hours:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Minutes from the old form's hours ("1.5", "2", "1,5"); 0 (refused by the server with its
/// own message) when it is not a number of hours.
pub fn minutes_from_hours(text: &str) -> i32 {
    let hours: f64 = match text.trim().replace(',', ".").parse() {
        Ok(hours) => hours,
        Err(_) => return 0,
    };
    let minutes = (hours * 60.0).round();
    if minutes.is_finite() && (0.0..=f64::from(i32::MAX)).contains(&minutes) {
        minutes as i32
    } else {
        0
    }
}

/// The legacy name of a quote's state.
fn state_text(state: i32) -> &'static str {
    match pb::QuoteState::try_from(state) {
        Ok(pb::QuoteState::Submitted) => "submitted",
        Ok(pb::QuoteState::Hired) => "hired",
        Ok(pb::QuoteState::NotSelected) => "not_selected",
        Ok(pb::QuoteState::Withdrawn) => "withdrawn",
        Ok(pb::QuoteState::Released) => "released",
        Ok(pb::QuoteState::Unspecified) | Err(_) => "",
    }
}

/// Who quoted, as the joined `professionaldetails` carried it, with their reviews in short.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LegacyQuoter {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub review_count: i32,
    pub average_rating: f64,
}

/// A quote: `_id`, `request_applied`, `professional_id`, `time_of_service` (hours), `fees`
/// (the fee before sales taxes: the quote's `fee`, never its `total`), and
/// `professionaldetails`; `requestdetails` (the list) or `appdetails` (the view) when
/// the request is known.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LegacyApplication {
    #[serde(rename = "_id")]
    pub id: String,
    pub request_applied: String,
    pub professional_id: String,
    pub time_of_service: String,
    pub fees: String,
    pub surge_cost: bool,
    pub status: &'static str,
    #[serde(rename = "createdAt")]
    pub created_at: Option<String>,
    pub professionaldetails: LegacyQuoter,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requestdetails: Option<LegacyRequest>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub appdetails: Option<LegacyRequest>,
}

impl LegacyApplication {
    pub fn new(quote: &pb::Quote) -> Self {
        let reviews = quote.professional_reviews.unwrap_or_default();
        Self {
            id: quote.id.clone(),
            request_applied: quote.repair_request_id.clone(),
            professional_id: quote.professional_id.clone(),
            time_of_service: hours_text(quote.estimated_minutes),
            fees: fee_text(quote.fee.as_ref()),
            surge_cost: quote.surge,
            status: state_text(quote.state),
            created_at: time_text(quote.create_time.as_ref()),
            professionaldetails: LegacyQuoter {
                id: quote.professional_id.clone(),
                name: quote.professional_name.clone(),
                review_count: reviews.review_count,
                average_rating: reviews.average_rating,
            },
            requestdetails: None,
            appdetails: None,
        }
    }
}

/// One of a professional's requests with their own quote (applied, active, completed lists).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LegacyQuotedRequest {
    #[serde(flatten)]
    pub request: LegacyRequest,
    pub application: LegacyApplication,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hours_and_minutes_convert_both_ways() {
        assert_eq!(hours_text(90), "1.5");
        assert_eq!(hours_text(120), "2");
        assert_eq!(hours_text(20), "0.33");
        assert_eq!(minutes_from_hours("1.5"), 90);
        assert_eq!(minutes_from_hours(" 2 "), 120);
        assert_eq!(minutes_from_hours("1,5"), 90);
        assert_eq!(minutes_from_hours("soon"), 0);
        assert_eq!(minutes_from_hours("-3"), 0);
        assert_eq!(minutes_from_hours("1e30"), 0);
    }
}
