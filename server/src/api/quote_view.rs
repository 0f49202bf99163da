//! A stored quote as the contracts carry it.

use repairs_proto::marketplace as pb;

use super::{convert::timestamp, tax_view::tax_lines_to_proto};
use crate::{
    billing::sale::quote_sale,
    domain::{Language, QuoteState, QuoteTaxTreatment},
    store::{quotes::QuoteRow, reviews::ReviewSummary},
};

pub fn tax_treatment_to_proto(treatment: QuoteTaxTreatment) -> pb::QuoteTaxTreatment {
    match treatment {
        QuoteTaxTreatment::Added => pb::QuoteTaxTreatment::Added,
        QuoteTaxTreatment::NotAdded => pb::QuoteTaxTreatment::NotAdded,
        QuoteTaxTreatment::NotRegistered => pb::QuoteTaxTreatment::NotRegistered,
    }
}

pub fn quote_state(state: QuoteState) -> pb::QuoteState {
    match state {
        QuoteState::Submitted => pb::QuoteState::Submitted,
        QuoteState::Hired => pb::QuoteState::Hired,
        QuoteState::NotSelected => pb::QuoteState::NotSelected,
        QuoteState::Withdrawn => pb::QuoteState::Withdrawn,
        QuoteState::Released => pb::QuoteState::Released,
    }
}

pub fn review_summary_to_proto(summary: &ReviewSummary) -> pb::ReviewSummary {
    pb::ReviewSummary {
        review_count: i32::try_from(summary.review_count).unwrap_or(i32::MAX),
        average_rating: summary.average_rating,
    }
}

pub fn quote_to_proto(quote: &QuoteRow, language: Language) -> pb::Quote {
    let sale = quote_sale(quote);
    pb::Quote {
        id: quote.id.to_string(),
        repair_request_id: quote.repair_request_id.to_string(),
        professional_id: quote.professional_id.to_string(),
        professional_name: quote.professional_name.clone(),
        estimated_minutes: quote.estimated_minutes,
        fee: Some(quote.fee().into()),
        state: quote_state(quote.state()) as i32,
        create_time: Some(timestamp(quote.created_at)),
        service_name: quote.service_name.of(language).to_owned(),
        request_description: quote.request_description.clone(),
        surge: quote.surge,
        update_time: Some(timestamp(quote.updated_at)),
        professional_reviews: Some(review_summary_to_proto(&quote.professional_reviews)),
        taxes: tax_lines_to_proto(&sale),
        total: Some(sale.total().into()),
        tax_treatment: tax_treatment_to_proto(quote.tax_treatment) as i32,
        release_time: (quote.state() == QuoteState::Released).then(|| timestamp(quote.updated_at)),
        arrival_minutes: quote.arrival_minutes.unwrap_or(0),
        arrive_by: quote.arrive_by().map(timestamp),
    }
}
