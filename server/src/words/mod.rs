//! Every word the server writes to people (emails, text messages, receipts, notices), once
//! per language: [`Words`] lists each message, [`en`] and [`fr`] write all of them (a message
//! missing in one language does not compile), [`format`] holds what both share to write
//! money and moments. The features decide who is told what and when; the words come from
//! here, through [`of`] and the reader's language.

mod en;
pub mod format;
mod fr;
#[cfg(test)]
mod tests;

pub use format::Moment;

use crate::{
    domain::{Language, Money, Topic},
    tax::{Rate, TaxLine, TaxName},
};

/// The words of the reader's language.
pub fn of(language: Language) -> &'static dyn Words {
    language.pick(&en::English, &fr::French)
}

/// An email's subject and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub subject: String,
    pub body: String,
}

/// A Web Push alert: the notification's title and its line of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alert {
    pub title: String,
    pub body: String,
}

/// A new request, as a professional near it reads of it: the service, the city and the
/// distance, never the street (only the hired professional learns the address).
#[derive(Debug, Clone, Copy)]
pub struct NewRequest<'a> {
    /// The service's name in the reader's language.
    pub service: &'a str,
    pub city: &'a str,
    pub province: &'a str,
    pub distance_km: i32,
    /// The drive from their home base, in whole minutes, when a road router reckoned it
    /// (the straight-line estimate is not told as a drive).
    pub drive_minutes: Option<i32>,
    pub emergency: bool,
    /// How many photos of the damage it has: the marker the outbox replaces by the count
    /// when it sends (`outbox::photo_count`), since photos are added after the request is
    /// placed and its alerts written.
    pub photos: &'a str,
    /// `PUBLIC_URL/view-request/{request_id}` (`config::links`).
    pub link: &'a str,
}

/// A new quote, as the request's customer reads of it.
#[derive(Debug, Clone, Copy)]
pub struct NewQuote<'a> {
    /// The service's name in the reader's language.
    pub service: &'a str,
    pub professional: &'a str,
    /// The fee before tax, and what the customer pays: the fee plus the taxes the
    /// professional added (the fee itself when none).
    pub fee: Money,
    pub total: Money,
    /// `PUBLIC_URL/application-list/{request_id}` (`config::links`).
    pub link: &'a str,
}

/// The job a hired professional is told of: where it is and how to reach the customer.
#[derive(Debug, Clone, Copy)]
pub struct Hired<'a> {
    pub service: &'a str,
    pub customer: &'a str,
    pub customer_phone: &'a str,
    pub address: &'a str,
    pub link: &'a str,
}

/// An order whose card hold lapses soon, as an admin reads of it.
#[derive(Debug, Clone, Copy)]
pub struct LapsingOrder<'a> {
    pub service: &'a str,
    pub customer: &'a str,
    pub order_id: &'a str,
    pub lapses: Moment,
    /// The admins' order history.
    pub link: &'a str,
}

/// A hire's payment as its customer reads of it: the job, who does it, the amount and the
/// receipt's number (the order's id).
#[derive(Debug, Clone, Copy)]
pub struct HirePayment<'a> {
    pub service: &'a str,
    pub professional: &'a str,
    pub amount: Money,
    pub order_id: &'a str,
    /// Where the customer follows it: their active requests or their orders.
    pub link: &'a str,
}

/// One refund of a hire's payment, as its credit note tells it.
pub struct CreditNote<'a> {
    pub service: &'a str,
    pub order_id: &'a str,
    /// What this refund gave back, and the sales taxes within it.
    pub amount: Money,
    pub taxes: Money,
    /// The payment's total.
    pub original: Money,
    /// Whether nothing is left to refund after it.
    pub in_full: bool,
    /// To the professional: their share given back (taken off what they are owed, or to
    /// settle with the platform once paid); `None` in the customer's note.
    pub professional_share: Option<Money>,
    pub reason: &'a str,
    pub refunded: Moment,
    /// The credit note's page.
    pub link: &'a str,
}

/// A step of a hire's payment, as its customer's alert names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentStep {
    HoldPlaced,
    Charged,
    Refunded,
    HoldEnded(HoldEnd),
}

/// How a card hold ended without the card being charged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HoldEnd {
    /// Released: the job was cancelled, or an admin released it.
    Released,
    /// It ran out before the job was marked completed.
    Lapsed,
}

/// A job's payment as its professional reads of it: the amount, the platform fee and what
/// they are owed.
#[derive(Debug, Clone, Copy)]
pub struct JobPaid<'a> {
    pub service: &'a str,
    pub customer: &'a str,
    pub amount: Money,
    pub fee: Money,
    pub net: Money,
    pub order_id: &'a str,
    pub paid: Moment,
    /// Their order history.
    pub link: &'a str,
    /// The sales taxes the platform charged on its fee (their input tax credit), in receipt
    /// order; empty when none applies.
    pub fee_taxes: &'a [TaxLine],
    /// The printable receipt of the job's payment.
    pub receipt_link: &'a str,
}

/// A review as the reviewed professional reads of it.
#[derive(Debug, Clone, Copy)]
pub struct Reviewed<'a> {
    pub service: &'a str,
    pub customer: &'a str,
    /// 1 to 5 stars.
    pub rating: i16,
    /// The review's words (may be empty); the email quotes the start of long ones.
    pub text: &'a str,
    /// Their profile, with their reviews.
    pub link: &'a str,
}

/// A message of a conversation, as its reader's devices are alerted of it.
#[derive(Debug, Clone, Copy)]
pub struct NewMessage<'a> {
    /// The request's service in the reader's language.
    pub service: &'a str,
    /// Who wrote it.
    pub from: &'a str,
    /// What they wrote, with contact details masked.
    pub text: &'a str,
}

/// The messages a reader left unread a while after they came, as they are emailed of them.
#[derive(Debug, Clone, Copy)]
pub struct UnreadMessages<'a> {
    /// The request's service in the reader's language.
    pub service: &'a str,
    /// Who wrote them.
    pub from: &'a str,
    /// The oldest of them, as the reader may read them (contact details masked before the
    /// hire); each quoted up to its start when long.
    pub texts: &'a [String],
    /// How many are unread in all (more than `texts` when there are many).
    pub count: usize,
    /// The conversation's page.
    pub link: &'a str,
}

/// A month of membership's receipt, with what a tax auditor asks for: the seller and its
/// registration numbers, the date, the buyer (the reader), the description, each tax with
/// its rate and amount, and the total.
#[derive(Debug, Clone, Copy)]
pub struct MembershipReceipt<'a> {
    /// The platform's name (`PLATFORM_LEGAL_NAME`).
    pub seller: &'a str,
    /// Its GST/HST number; `None`: not registered.
    pub gst_hst_number: Option<&'a str>,
    /// Its QST number; `None`: not registered.
    pub qst_number: Option<&'a str>,
    /// The day of the sale (the taxes became payable that day).
    pub date: Moment,
    /// Before tax, after any coupon.
    pub subtotal: Money,
    /// In receipt order.
    pub taxes: &'a [TaxLine],
    /// What was charged: 0 for a month a coupon made free.
    pub total: Money,
    /// The membership's new end.
    pub ends: Moment,
    /// The printable receipt (`/receipts/{payment_id}`, `config::links`).
    pub link: &'a str,
}

/// A hire's receipt as a tax auditor reads it: the professional (the seller, named by the
/// [`HirePayment`]) with their registration numbers as the payment recorded them, the amount
/// before tax, each tax and the total, and the printable receipt.
#[derive(Debug, Clone, Copy)]
pub struct HireReceipt<'a> {
    /// `None`: not registered (no such tax was charged).
    pub gst_hst_number: Option<&'a str>,
    pub qst_number: Option<&'a str>,
    pub subtotal: Money,
    /// In receipt order.
    pub taxes: &'a [TaxLine],
    pub total: Money,
    /// The printable receipt (`/receipts/{payment_id}`, `config::links`).
    pub link: &'a str,
}

/// A hire given back by its professional, as the customer reads of it.
#[derive(Debug, Clone, Copy)]
pub struct ReleasedHire<'a> {
    /// The service's name in the reader's language.
    pub service: &'a str,
    pub professional: &'a str,
    /// Why, in the professional's own words.
    pub reason: &'a str,
    /// The request's quotes (`config::links`).
    pub link: &'a str,
}

/// A professional paused after hires of theirs were released.
#[derive(Debug, Clone, Copy)]
pub struct PausedAfterReleases<'a> {
    pub professional: &'a str,
    pub email: &'a str,
    /// Their hires released in the last 30 days, this one included.
    pub released: i64,
    pub until: Moment,
}

/// What a receipt says was sold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sold<'a> {
    /// A month of the professional membership.
    Membership,
    /// An admin's test charge.
    TestCharge,
    /// A professional's repair work: the request's service in the reader's language, and
    /// its postal code (empty when it has none).
    RepairWork {
        service: &'a str,
        postal_code: &'a str,
    },
}

/// A problem reported after a job, as the hired professional or an admin reads of it.
#[derive(Debug, Clone, Copy)]
pub struct ProblemReported<'a> {
    pub service: &'a str,
    pub customer: &'a str,
    /// The professional's name (for admins).
    pub professional: &'a str,
    /// What the customer wrote, quoted in part.
    pub text: &'a str,
    /// The job's conversation (the professional), or the problem's page (admins).
    pub link: &'a str,
}

/// A card dispute the bank opened, as the admins are told of it.
#[derive(Debug, Clone, Copy)]
pub struct DisputeOpened<'a> {
    pub amount: Money,
    /// The bank's reason as the gateway names it (`fraudulent`...).
    pub reason: &'a str,
    /// Until when evidence is taken, when the gateway said.
    pub due: Option<Moment>,
    /// The dispute's page.
    pub link: &'a str,
}

/// How an admin closed a problem, as either party reads of it.
#[derive(Debug, Clone, Copy)]
pub struct ProblemResolved<'a> {
    pub service: &'a str,
    /// The admin's note.
    pub note: &'a str,
    /// Whether the payment was refunded (in part or in full).
    pub refunded: bool,
    /// The job's page.
    pub link: &'a str,
}

/// Each message the server writes, and how the language writes money and moments. `name`
/// is always the reader's.
pub trait Words: Sync {
    /// "$120.00", "120,00 $".
    fn money(&self, amount: Money) -> String;
    /// What a quote asks: "$120.00", or with taxes "$137.96 taxes included ($120.00 before
    /// taxes)".
    fn quoted_price(&self, fee: Money, total: Money) -> String {
        if total == fee {
            self.money(fee)
        } else {
            self.price_with_taxes(&self.money(total), &self.money(fee))
        }
    }
    /// A total with its taxes, and the fee before them, both written already.
    fn price_with_taxes(&self, total: &str, fee: &str) -> String;
    /// A day in the reader's zone: "December 25, 2026", "25 décembre 2026".
    fn date(&self, when: Moment) -> String;
    /// A day and a time in the reader's zone, with the zone's offset.
    fn date_time(&self, when: Moment) -> String;
    /// A sales tax's name: "HST", "TVH".
    fn tax_name(&self, tax: TaxName) -> &'static str;
    /// A tax rate: "9.975%", "9,975 %".
    fn percent(&self, rate: Rate) -> String;

    // Accounts.
    /// The link that sets a new password, valid an hour.
    fn password_reset(&self, name: &str, link: &str) -> Mail;
    /// The person closed their account: erased on `erased_on` unless they follow `keep_link`.
    fn account_closed(&self, name: &str, erased_on: Moment, keep_link: &str) -> Mail;
    /// The copy of their data they asked for is ready on `link` (their account page) until
    /// `until`.
    fn data_export_ready(&self, name: &str, until: Moment, link: &str) -> Mail;
    /// The link that confirms a new account's email address, valid three days.
    fn email_confirmation(&self, name: &str, link: &str) -> Mail;
    /// The text message with a phone verification code, valid ten minutes.
    fn phone_code(&self, code: &str) -> String;
    /// An admin approved the professional's profile; `link` opens the professionals' sign-in.
    fn profile_approved(&self, name: &str, link: &str) -> Mail;
    /// An admin denied the professional's registration, for `reason`.
    fn registration_denied(&self, name: &str, reason: &str) -> Mail;
    /// An admin approved the professional's pending change (a licence, services, their legal
    /// name or registered address): it is now part of their profile.
    fn pending_change_approved(&self, name: &str) -> Mail;
    /// An admin refused the professional's pending change, for `reason`; they stay approved
    /// for what was approved.
    fn pending_change_refused(&self, name: &str, reason: &str) -> Mail;
    /// An admin refused the pending change and revoked the professional's last approved
    /// licence, for `reason`: they can take no jobs until a licence is approved again.
    fn licence_revoked(&self, name: &str, reason: &str) -> Mail;

    // Requests and quotes.
    fn new_request_email(&self, name: &str, request: &NewRequest<'_>) -> Mail;
    fn new_request_sms(&self, request: &NewRequest<'_>) -> String;
    /// To a professional who quoted on, or was hired for, a request its customer cancelled.
    fn request_cancelled(&self, name: &str, service: &str) -> Mail;
    fn new_quote_email(&self, name: &str, quote: &NewQuote<'_>) -> Mail;
    fn new_quote_sms(&self, quote: &NewQuote<'_>) -> String;
    /// The push alert of a new request: the service and the city, never the street.
    fn new_request_alert(&self, request: &NewRequest<'_>) -> Alert;
    /// The push alert of a new quote on the customer's request.
    fn new_quote_alert(&self, quote: &NewQuote<'_>) -> Alert;
    /// To a customer: `professional` cannot take jobs any more, so their quote is withdrawn.
    fn quote_withdrawn(&self, name: &str, professional: &str, service: &str) -> Mail;

    // Trips ("on my way").
    /// To the customer: `professional` set out for the job and should be there in about
    /// `minutes`.
    fn trip_started_alert(&self, professional: &str, service: &str, minutes: i32) -> Alert;
    /// The text of [`Words::trip_started_alert`], to a customer who chose texts.
    fn trip_started_sms(&self, professional: &str, minutes: i32, link: &str) -> String;
    /// To the customer: `professional` is at the door.
    fn trip_arrived_alert(&self, professional: &str, service: &str) -> Alert;

    // Hiring.
    fn hired(&self, name: &str, job: &Hired<'_>) -> Mail;
    /// The push alert of a hire, to the hired professional: the service and the customer.
    fn hired_alert(&self, service: &str, customer: &str) -> Alert;
    /// The text of a hire: the customer, the service and the job's link, in one SMS.
    fn hired_sms(&self, job: &Hired<'_>) -> String;
    /// The push alert to a professional whose quote on, or job for, a request was closed:
    /// the customer cancelled it (`cancelled`) or hired someone else.
    fn quote_closed_alert(&self, service: &str, cancelled: bool) -> Alert;
    /// To a professional whose quote lost: the customer hired someone else.
    fn not_selected(&self, name: &str, service: &str) -> Mail;
    /// To the customer: their job's card hold lapses at `lapses`.
    fn hold_lapsing(&self, name: &str, service: &str, lapses: Moment, link: &str) -> Mail;
    fn hold_lapsing_admin(&self, name: &str, order: &LapsingOrder<'_>) -> Mail;
    /// To the customer: the hold is placed at the hire, and lapses at `lapses` (when the
    /// gateway said) unless the job is completed first.
    fn hold_placed(&self, name: &str, payment: &HirePayment<'_>, lapses: Option<Moment>) -> Mail;
    /// To the customer: the receipt of the card charged at `charged`, with its auditor's
    /// details.
    fn payment_receipt(
        &self,
        name: &str,
        payment: &HirePayment<'_>,
        charged: Moment,
        receipt: &HireReceipt<'_>,
    ) -> Mail;
    /// To the customer: the payment was refunded at `refunded`.
    fn refund(
        &self,
        name: &str,
        payment: &HirePayment<'_>,
        refunded: Moment,
        receipt: &HireReceipt<'_>,
    ) -> Mail;
    /// To a hire's customer or its professional: the credit note of one refund, what it gave
    /// back of the payment and why.
    fn credit_note(&self, name: &str, note: &CreditNote<'_>) -> Mail;
    /// To the customer: the hold ended at `ended` (released or lapsed), nothing charged.
    fn hold_ended(
        &self,
        name: &str,
        payment: &HirePayment<'_>,
        end: HoldEnd,
        ended: Moment,
    ) -> Mail;
    /// To the hired professional: the job was paid, and what they are owed of it.
    fn job_paid(&self, name: &str, paid: &JobPaid<'_>) -> Mail;
    /// The push alert of a step of the customer's hire payment.
    fn payment_alert(&self, payment: &HirePayment<'_>, step: PaymentStep) -> Alert;
    /// The push alert of a job paid, to its professional: what they are owed of it.
    fn job_paid_alert(&self, paid: &JobPaid<'_>) -> Alert;

    // When a hire goes wrong.
    /// To the customer: the hired professional cannot come; the request is open again with
    /// its other quotes.
    fn hire_released_by_professional(&self, name: &str, hire: &ReleasedHire<'_>) -> Mail;
    /// The push alert of the same.
    fn hire_released_alert(&self, hire: &ReleasedHire<'_>) -> Alert;
    /// To the hired professional: the customer released the job (nobody had come by the time
    /// they were given), in words that do not blame.
    fn hire_released_by_customer(&self, name: &str, service: &str) -> Mail;
    /// To a professional whose quote the hire had set aside: it is live again (`link`: their
    /// quotes).
    fn choosing_again(&self, name: &str, service: &str, link: &str) -> Mail;
    /// To the professional: their alerts are paused after hires of theirs were released.
    fn paused_after_releases(&self, name: &str, paused: &PausedAfterReleases<'_>) -> Mail;
    /// To the admins: the same pause, for them to follow up.
    fn paused_after_releases_admin(&self, name: &str, paused: &PausedAfterReleases<'_>) -> Mail;

    // Conversations.
    /// What stands in a message for a phone number its reader sees once they hire.
    fn hidden_phone(&self) -> &'static str;
    /// What stands in a message for an email address its reader sees once they hire.
    fn hidden_email(&self) -> &'static str;
    /// What a new request's alerts say of its photos when it has none: "none".
    fn no_photos(&self) -> &'static str;
    /// What a message of photos alone shows in its alert and its email: "(2 photos)".
    fn photos_attached(&self, count: usize) -> String;
    /// The push alert of a new message: who wrote about which request, and its start.
    fn new_message_alert(&self, message: &NewMessage<'_>) -> Alert;
    /// The email of messages still unread a while after they came (one for all of them).
    fn unread_messages(&self, name: &str, unread: &UnreadMessages<'_>) -> Mail;
    /// The same, in one SMS: who wrote, the start of the oldest message, and the link.
    fn unread_messages_sms(&self, unread: &UnreadMessages<'_>) -> String;

    // Reviews.
    /// To the professional: a customer reviewed their work.
    fn reviewed(&self, name: &str, review: &Reviewed<'_>) -> Mail;

    // Billing.
    /// A month of membership: its receipt and the new end; `name` is the buyer's.
    fn membership_receipt(&self, name: &str, receipt: &MembershipReceipt<'_>) -> Mail;
    /// Three days before a membership ends.
    fn membership_reminder(&self, name: &str, ends: Moment) -> Mail;

    // What reaches a person.
    /// The foot of an email of `topic` its reader may turn off: who sends it (`sender`: the
    /// platform's name and address) and the `link` that stops that kind (CASL).
    fn unsubscribe_footer(&self, topic: Topic, sender: &str, link: &str) -> String;
    /// What a receipt says was sold: "Professional membership, one month".
    fn receipt_description(&self, sold: Sold<'_>) -> String;

    // Content.
    /// To the team: a message sent through the contact form by `sender` at `email`.
    fn contact_message(&self, sender: &str, email: &str, message: &str) -> Mail;

    // A problem after the job.

    /// Who an admin's message in a conversation is from: "Support".
    fn support(&self) -> &'static str;
    /// To the hired professional: the customer reported a problem with the job; the
    /// conversation is open again. Words that do not blame.
    fn problem_reported(&self, name: &str, problem: &ProblemReported<'_>) -> Mail;
    /// To an admin: a problem joined the queue.
    fn problem_reported_admin(&self, name: &str, problem: &ProblemReported<'_>) -> Mail;
    /// To the admins: a cardholder disputed a charge; the evidence is due by a date.
    fn dispute_opened_admin(&self, name: &str, dispute: &DisputeOpened<'_>) -> Mail;
    /// To either party: an admin closed the problem, with their note.
    fn problem_resolved(&self, name: &str, resolved: &ProblemResolved<'_>) -> Mail;
}
