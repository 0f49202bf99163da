//! Payout accounts and ledger entries as BillingService answers them.

use repairs_proto::{billing as pb, types};

use super::{convert::timestamp, tax_view::charged_to_proto};
use crate::billing::payouts::{self, AccountState, Entry, EntryState, PayoutAccount};

/// Payouts are in Canadian dollars, as the hires they come from.
fn cad(amount_cents: i64) -> Option<types::Money> {
    Some(types::Money {
        amount_cents,
        currency: "CAD".to_owned(),
    })
}

pub fn account_to_proto(account: PayoutAccount) -> pb::PayoutAccount {
    let state = match account.state {
        AccountState::TestLedger => pb::PayoutAccountState::TestLedger,
        AccountState::NotStarted => pb::PayoutAccountState::NotStarted,
        AccountState::Pending => pb::PayoutAccountState::Pending,
        AccountState::Enabled => pb::PayoutAccountState::Enabled,
    };
    pb::PayoutAccount {
        professional_id: account.professional_id.to_string(),
        state: state as i32,
        owed: cad(account.totals.owed_cents),
        paid: cad(account.totals.paid_cents),
        platform_fee_percent: i32::from(account.fee_percent),
        test_mode: account.test_mode,
    }
}

pub fn payout_to_proto(entry: Entry) -> pb::Payout {
    let net = entry.net_cents();
    let platform_fee_taxes = charged_to_proto(&entry.fee_taxes);
    let row = entry.row;
    let state = match payouts::entry_state(&row) {
        EntryState::Owed => pb::PayoutState::Owed,
        EntryState::Paid => pb::PayoutState::Paid,
        EntryState::Reversed => pb::PayoutState::Reversed,
        EntryState::TransferFailed => pb::PayoutState::TransferFailed,
        EntryState::RefundedAfterPayout => pb::PayoutState::RefundedAfterPayout,
        EntryState::Held => pb::PayoutState::Held,
        EntryState::DisputeLost => pb::PayoutState::DisputeLost,
    };
    let failed = state == pb::PayoutState::TransferFailed;
    pb::Payout {
        id: row.id.to_string(),
        order_id: row.order_id.to_string(),
        gross: cad(row.gross_cents),
        platform_fee: cad(row.fee_cents),
        net: cad(net),
        state: state as i32,
        transfer_id: row.transfer_id.unwrap_or_default(),
        create_time: Some(timestamp(row.captured_at)),
        pay_time: row.paid_at.map(timestamp),
        failed_attempts: row.attempts,
        last_error: if failed { row.last_error } else { None }.unwrap_or_default(),
        next_attempt_time: row.next_attempt_at.filter(|_| failed).map(timestamp),
        note: row.note.unwrap_or_default(),
        platform_fee_taxes,
        refunded: cad(row.refunded_cents),
    }
}
