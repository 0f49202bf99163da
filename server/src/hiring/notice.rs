//! Who is told what about a hire, and when: the hired professional (where the job is and
//! how to reach the customer), the professionals whose quotes lost, and, a day before a card
//! hold lapses, the customer (in their request's time zone) and the admins (in UTC); and
//! what the hire's payment came to ([`PaymentOutcome`]: the customer's receipts, in their
//! request's time zone, and the paid professional's share, in theirs). The words are
//! [`crate::words`]'.

use anyhow::Context;

use crate::{
    billing::{
        Payment, PaymentState,
        sale::{ChargedTax, Sale},
    },
    config::links::{Links, PageLink},
    domain::{Language, Money},
    outbox::NewOutboxMessage,
    store::{
        accounts::Contact,
        orders::{AdminRecipient, LapsingHold},
        quotes::ClosedQuote,
        receipts::HireFacts,
        repair_requests::RepairRequestRow,
    },
    tax::{TaxLine, TaxName},
    words::{
        self, Alert, HirePayment, HireReceipt, Hired, HoldEnd, JobPaid, LapsingOrder, Moment,
        PaymentStep,
    },
};

/// What a hire's payment came to, beside the payment: its sale as the ledger recorded it
/// (the job's taxes, collected under the professional's numbers), the taxes the platform
/// charges on its fee, and the printable receipt.
pub(super) struct Amounts {
    pub sale: Sale,
    pub fee_taxes: Vec<ChargedTax>,
    pub receipt: PageLink,
    /// The same receipt opened with the professional's session.
    pub payee_receipt: PageLink,
}

impl Amounts {
    fn fee_tax_lines(&self) -> Vec<TaxLine> {
        self.fee_taxes.iter().map(|tax| tax.line).collect()
    }

    fn job_tax_lines(&self) -> Vec<TaxLine> {
        self.sale.taxes.iter().map(|tax| tax.line).collect()
    }

    /// The professional's number for the taxes `names`, as the payment recorded it.
    fn number(&self, names: &[TaxName]) -> Option<&str> {
        self.sale
            .taxes
            .iter()
            .find(|tax| names.contains(&tax.line.name))
            .map(|tax| tax.registration_number.as_str())
    }
}

/// The push alert of a hire on a device of the hired professional set to `language`: the
/// service and the customer; the address is for the job's page.
pub(super) fn hired_alert(
    customer: &Contact,
    request: &RepairRequestRow,
    language: Language,
) -> Alert {
    words::of(language).hired_alert(request.service_name.of(language), &customer.name)
}

/// The email telling the hired professional `pro` where the job is and how to reach
/// `customer` (`link` lists their active jobs), and a text when they asked for texts.
pub(super) fn hired(
    pro: &Contact,
    customer: &Contact,
    request: &RepairRequestRow,
    link: &PageLink,
) -> Vec<NewOutboxMessage> {
    let job = Hired {
        service: request.service_name.of(pro.language),
        customer: &customer.name,
        customer_phone: customer.phone.as_deref().unwrap_or(""),
        address: &request.street_address(),
        link: link.of(pro.language),
    };
    let words = words::of(pro.language);
    let mail = words.hired(&pro.name, &job);
    let mut messages = vec![NewOutboxMessage::email(&pro.email, mail.subject, mail.body)];
    if let Some(phone) = pro.texts_to() {
        messages.push(NewOutboxMessage::sms(phone, words.hired_sms(&job)));
    }
    messages
}

/// The email telling a professional whose quote lost that the customer hired someone else.
pub(super) fn not_selected(closed: &ClosedQuote) -> NewOutboxMessage {
    let service = closed.service_name.of(closed.language);
    let mail = words::of(closed.language).not_selected(&closed.name, service);
    NewOutboxMessage::email(&closed.email, mail.subject, mail.body)
}

/// The email warning the customer that their job's hold lapses soon (`link`: their active
/// requests), at the hour of their request's place.
pub(super) fn hold_lapsing(hold: &LapsingHold, link: &PageLink) -> NewOutboxMessage {
    let language = hold.customer_language;
    let mail = words::of(language).hold_lapsing(
        &hold.customer_name,
        hold.service_name.of(language),
        Moment::new(hold.lapses_at, &hold.time_zone),
        link.of(language),
    );
    NewOutboxMessage::email(&hold.customer_email, mail.subject, mail.body)
}

/// The email warning `admin` of the same hold (`link`: the order history), in UTC.
pub(super) fn hold_lapsing_admin(
    hold: &LapsingHold,
    admin: &AdminRecipient,
    link: &PageLink,
) -> NewOutboxMessage {
    let order_id = hold.order_id.to_string();
    let order = LapsingOrder {
        service: hold.service_name.of(admin.language),
        customer: &hold.customer_name,
        order_id: &order_id,
        lapses: Moment::utc(hold.lapses_at),
        link: link.of(admin.language),
    };
    let mail = words::of(admin.language).hold_lapsing_admin(&admin.name, &order);
    NewOutboxMessage::email(&admin.email, mail.subject, mail.body)
}

/// What a hired order's payment came to, as its parties are told of it once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PaymentOutcome {
    /// The hold is on the card.
    Held,
    /// The card was charged: the customer's receipt, and the professional's share.
    Charged,
    Refunded,
    /// The hold ended with nothing charged.
    Ended(HoldEnd),
}

impl PaymentOutcome {
    /// The outcome a payment in `state` has come to; `None` while it has come to none
    /// (waiting on the cardholder) or to none a hired order can have (refused).
    pub(super) fn of(state: PaymentState) -> Option<Self> {
        match state {
            PaymentState::Authorized => Some(Self::Held),
            PaymentState::Captured => Some(Self::Charged),
            PaymentState::Refunded => Some(Self::Refunded),
            PaymentState::Canceled => Some(Self::Ended(HoldEnd::Released)),
            PaymentState::Expired => Some(Self::Ended(HoldEnd::Lapsed)),
            // A dispute is the bank's and the admins' matter: the parties were told of the
            // charge, and nothing of the platform's own changed since.
            PaymentState::RequiresAction
            | PaymentState::Failed
            | PaymentState::Disputed
            | PaymentState::ChargedBack => None,
        }
    }

    /// Its name in `hire_receipts.outcome`.
    pub(super) fn key(self) -> &'static str {
        match self {
            Self::Held => "held",
            Self::Charged => "charged",
            Self::Refunded => "refunded",
            Self::Ended(_) => "released",
        }
    }

    fn step(self) -> PaymentStep {
        match self {
            Self::Held => PaymentStep::HoldPlaced,
            Self::Charged => PaymentStep::Charged,
            Self::Refunded => PaymentStep::Refunded,
            Self::Ended(end) => PaymentStep::HoldEnded(end),
        }
    }
}

/// The page a customer's message of `outcome` opens: their active requests while the job
/// can go on, else their orders.
pub(super) fn customer_link(outcome: PaymentOutcome, links: Links<'_>) -> PageLink {
    match outcome {
        PaymentOutcome::Held | PaymentOutcome::Ended(HoldEnd::Lapsed) => links.customer_jobs(),
        _ => links.customer_orders(),
    }
}

/// The payment as its customer reads of it in `language`.
fn hire_payment<'a>(
    facts: &'a HireFacts,
    payment: &Payment,
    language: Language,
    order_id: &'a str,
    link: &'a str,
) -> HirePayment<'a> {
    HirePayment {
        service: facts.service_name.of(language),
        professional: &facts.professional_name,
        amount: payment.amount,
        order_id,
        link,
    }
}

/// The customer's push alert of `outcome` on a device set to `language`.
pub(super) fn payment_alert(
    facts: &HireFacts,
    payment: &Payment,
    outcome: PaymentOutcome,
    language: Language,
    link: &PageLink,
) -> Alert {
    let order_id = facts.order_id.to_string();
    let told = hire_payment(facts, payment, language, &order_id, link.of(language));
    words::of(language).payment_alert(&told, outcome.step())
}

/// The professional's push alert of their job paid, on a device set to `language`.
pub(super) fn job_paid_alert(
    facts: &HireFacts,
    payment: &Payment,
    amounts: &Amounts,
    language: Language,
    link: &PageLink,
) -> Option<Alert> {
    let order_id = facts.order_id.to_string();
    let fee_taxes = amounts.fee_tax_lines();
    let told = Told {
        order_id: &order_id,
        link: link.of(language),
        fee_taxes: &fee_taxes,
    };
    let paid = paid(facts, payment, amounts, language, told).ok()?;
    Some(words::of(language).job_paid_alert(&paid))
}

/// The emails telling a hire's parties that its `payment` came to `outcome` (none to a
/// deleted customer), with `links` to their pages.
pub(super) fn payment_outcome(
    facts: &HireFacts,
    payment: &Payment,
    amounts: &Amounts,
    outcome: PaymentOutcome,
    links: Links<'_>,
) -> anyhow::Result<Vec<NewOutboxMessage>> {
    let mut told = Vec::new();
    // A refund is told by its credit note (`billing::refunds::tell`), one per refund: the
    // last one, which refunds the payment in full, included.
    if !facts.customer_deleted && outcome != PaymentOutcome::Refunded {
        told.push(to_customer(facts, payment, amounts, outcome, links));
    }
    if outcome == PaymentOutcome::Charged {
        told.push(job_paid(facts, payment, amounts, links)?);
    }
    Ok(told)
}

/// The customer's email of `outcome`, dated in their request's zone.
fn to_customer(
    facts: &HireFacts,
    payment: &Payment,
    amounts: &Amounts,
    outcome: PaymentOutcome,
    links: Links<'_>,
) -> NewOutboxMessage {
    let language = facts.customer_language;
    let words = words::of(language);
    let at = |time| Moment::new(time, &facts.request_time_zone);
    let link = customer_link(outcome, links);
    let order_id = facts.order_id.to_string();
    let told = hire_payment(facts, payment, language, &order_id, link.of(language));
    let name = &facts.customer_name;
    let taxes = amounts.job_tax_lines();
    let receipt = HireReceipt {
        gst_hst_number: amounts.number(&[TaxName::Gst, TaxName::Hst]),
        qst_number: amounts.number(&[TaxName::Qst]),
        subtotal: amounts.sale.subtotal,
        taxes: &taxes,
        total: payment.amount,
        link: amounts.receipt.of(language),
    };
    let mail = match outcome {
        PaymentOutcome::Held => {
            words.hold_placed(name, &told, payment.authorization_expires_at.map(at))
        }
        PaymentOutcome::Charged => {
            let charged = payment.captured_at.unwrap_or(payment.updated_at);
            words.payment_receipt(name, &told, at(charged), &receipt)
        }
        PaymentOutcome::Refunded => words.refund(name, &told, at(payment.updated_at), &receipt),
        PaymentOutcome::Ended(end) => {
            let ended = match end {
                HoldEnd::Lapsed => payment.authorization_expires_at,
                HoldEnd::Released => None,
            };
            words.hold_ended(name, &told, end, at(ended.unwrap_or(payment.updated_at)))
        }
    };
    NewOutboxMessage::email(&facts.customer_email, mail.subject, mail.body)
}

/// The hired professional's email of the job's payment: the amount, the platform fee and
/// what they are owed, dated in their zone.
fn job_paid(
    facts: &HireFacts,
    payment: &Payment,
    amounts: &Amounts,
    links: Links<'_>,
) -> anyhow::Result<NewOutboxMessage> {
    let language = facts.professional_language;
    let order_id = facts.order_id.to_string();
    let link = links.professional_orders();
    let fee_taxes = amounts.fee_tax_lines();
    let told = Told {
        order_id: &order_id,
        link: link.of(language),
        fee_taxes: &fee_taxes,
    };
    let paid = paid(facts, payment, amounts, language, told)?;
    let mail = words::of(language).job_paid(&facts.professional_name, &paid);
    Ok(NewOutboxMessage::email(
        &facts.professional_email,
        mail.subject,
        mail.body,
    ))
}

/// What the professional's message of a paid job names beside the facts.
struct Told<'a> {
    order_id: &'a str,
    link: &'a str,
    fee_taxes: &'a [TaxLine],
}

/// The job's payment as its professional reads of it in `language`, dated in their zone:
/// what they are owed is the amount less the fee and the fee's taxes.
fn paid<'a>(
    facts: &'a HireFacts,
    payment: &Payment,
    amounts: &'a Amounts,
    language: Language,
    told: Told<'a>,
) -> anyhow::Result<JobPaid<'a>> {
    let currency = payment.amount.currency().code();
    let share = |cents| Money::parse(cents, currency).context("a payment's share");
    let fee_tax_cents: i64 = told.fee_taxes.iter().map(|t| t.amount.cents().get()).sum();
    let net = payment.amount.cents().get() - facts.fee_cents - fee_tax_cents;
    Ok(JobPaid {
        service: facts.service_name.of(language),
        customer: &facts.customer_name,
        amount: payment.amount,
        fee: share(facts.fee_cents)?,
        net: share(net.max(0))?,
        order_id: told.order_id,
        paid: Moment::new(
            payment.captured_at.unwrap_or(payment.updated_at),
            &facts.professional_time_zone,
        ),
        link: told.link,
        fee_taxes: told.fee_taxes,
        receipt_link: amounts.payee_receipt.of(language),
    })
}
