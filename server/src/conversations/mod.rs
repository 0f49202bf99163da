//! Conversations between a repair request's customer and each professional who may see it
//! (as GetRepairRequest decides: `requests::get`): one per request and professional, opened by
//! either side's first message, writable while the request is open or its job under way and
//! readable after ([`crate::domain::conversation`]). Before the hire the reader sees phone
//! numbers and email addresses masked ([`crate::domain::contacts`]).
//!
//! [`place`] finds the conversation a call names and where the caller stands in it; [`send`]
//! writes a message (once per client key, within the sender's budget) and alerts the reader,
//! with the photos [`photos`] kept for it;
//! [`read`] lists conversations and messages and moves read markers; [`watch`] streams a
//! conversation live; [`emails`] emails what stays unread; [`translations`] translates
//! messages into the other language; [`reports`] is the admins' queue; [`blocks`] keeps
//! professionals out of a customer's requests.

pub mod blocks;
pub mod emails;
pub mod photos;
pub mod place;
pub mod read;
pub mod reports;
pub mod seen;
pub mod send;
pub mod translations;
pub mod watch;
