//! Receipts, monthly statements and the tax report as BillingService answers them.

use repairs_proto::{billing as pb, types};

use super::{
    billing_view::{payment_state_to_proto, purpose_to_proto},
    convert::timestamp,
    payout_view::payout_to_proto,
    tax_view::charged_to_proto,
};
use crate::{
    billing::{
        receipts::{Party, Receipt},
        statement::Statement,
        tax_report::{Row, TaxSeller},
    },
    domain::{Money, Province},
    tax::Seller,
};

fn cad(amount_cents: i64) -> Option<types::Money> {
    Some(types::Money {
        amount_cents,
        currency: "CAD".to_owned(),
    })
}

fn party_to_proto(party: Party) -> pb::ReceiptParty {
    pb::ReceiptParty {
        name: party.name,
        gst_hst_number: party.gst_hst_number.unwrap_or_default(),
        qst_number: party.qst_number.unwrap_or_default(),
    }
}

fn seller_to_proto(seller: Seller) -> pb::ReceiptParty {
    pb::ReceiptParty {
        name: seller.name,
        gst_hst_number: seller
            .registrations
            .gst_hst
            .map(|n| n.as_str().to_owned())
            .unwrap_or_default(),
        qst_number: seller
            .registrations
            .qst
            .map(|n| n.as_str().to_owned())
            .unwrap_or_default(),
    }
}

pub(super) fn receipt_to_proto(receipt: Receipt) -> pb::Receipt {
    let total: Money = receipt.sale.total();
    pb::Receipt {
        payment_id: receipt.payment.id.to_string(),
        purpose: purpose_to_proto(receipt.payment.purpose) as i32,
        state: payment_state_to_proto(receipt.payment.state) as i32,
        seller: Some(party_to_proto(receipt.seller)),
        buyer: Some(party_to_proto(receipt.buyer)),
        description: receipt.description,
        supply_date: receipt.supply_date.format("%Y-%m-%d").to_string(),
        province: receipt
            .province
            .map(Province::code)
            .unwrap_or_default()
            .to_owned(),
        subtotal: Some(receipt.sale.subtotal.into()),
        taxes: charged_to_proto(&receipt.sale.taxes),
        total: Some(total.into()),
        create_time: Some(timestamp(receipt.payment.created_at)),
        capture_time: receipt.payment.captured_at.map(timestamp),
        refund_time: receipt.refunded_at.map(timestamp),
        test_mode: receipt.payment.test_mode,
        refund_id: receipt
            .credit_note
            .as_ref()
            .map(|note| note.refund_id.to_string())
            .unwrap_or_default(),
        original_total: receipt
            .credit_note
            .as_ref()
            .map(|n| n.original_total.into()),
        refund_reason: receipt.credit_note.map(|n| n.reason).unwrap_or_default(),
    }
}

pub(super) fn statement_to_proto(statement: Statement) -> pb::MonthlyStatement {
    let jobs_taxes = charged_to_proto(&statement.jobs_taxes());
    let platform_fee_taxes = charged_to_proto(&statement.platform_fee_taxes());
    let (jobs_subtotal, platform_fees, paid_out) = (
        statement.jobs_subtotal_cents(),
        statement.platform_fees_cents(),
        statement.paid_out_cents(),
    );
    let jobs = statement
        .jobs
        .into_iter()
        .map(|job| {
            let row = &job.entry.row;
            pb::StatementJob {
                order_id: row.order_id.to_string(),
                payment_id: row.id.to_string(),
                service_name: job.service,
                customer_name: job.customer,
                capture_time: Some(timestamp(row.captured_at)),
                subtotal: cad(row.subtotal_cents),
                taxes: charged_to_proto(&job.taxes),
                total: cad(row.gross_cents),
                platform_fee: cad(row.fee_cents),
                platform_fee_taxes: charged_to_proto(&job.entry.fee_taxes),
            }
        })
        .collect();
    pb::MonthlyStatement {
        professional_id: statement.professional_id.to_string(),
        professional_name: statement.professional_name,
        month: statement.month,
        jobs,
        jobs_subtotal: cad(jobs_subtotal),
        jobs_taxes,
        platform_fees: cad(platform_fees),
        platform_fee_taxes,
        payouts: statement.payouts.into_iter().map(payout_to_proto).collect(),
        paid_out: cad(paid_out),
        platform: Some(seller_to_proto(statement.platform)),
    }
}

pub(super) fn tax_row_to_proto(row: &Row) -> pb::TaxReportRow {
    let seller = match row.seller {
        TaxSeller::Platform => pb::TaxSeller::Platform,
        TaxSeller::Professionals => pb::TaxSeller::Professionals,
    };
    pb::TaxReportRow {
        seller: seller as i32,
        province: row.province.clone(),
        tax_name: row.tax.clone(),
        rate_percent: row.rate.rate_percent(),
        taxable_sales: cad(row.taxable_cents),
        tax_collected: cad(row.tax_cents),
        sale_count: i32::try_from(row.sales).unwrap_or(i32::MAX),
    }
}
