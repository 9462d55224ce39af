//! docstream-core: the chat streams of AI coding agents, as live documents.
//!
//! Bytes go in — Server-Sent Events, NDJSON or one JSON value, cut into chunks
//! anywhere — and a [`Conversation`](model::Conversation) of typed documents comes out,
//! kept up to date as the bytes arrive: prose, code, file edits, tool calls, terminal
//! runs, plans, questions, errors, thinking.
//!
//! The pipeline, one folder a stage: [`framing`] → [`formats`] → [`normalize`] →
//! [`model`]. [`DocStream`] ties them together. Nothing here reads a clock, a file or the
//! network: the caller pushes bytes and takes the changes.
//!
//! ```
//! use docstream_core::{DocStream, Options};
//!
//! let mut stream = DocStream::new(Options::default());
//! stream.push(br#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Hello"}]}}"#)?;
//! stream.push(b"\n{\"type\":\"result\",\"subtype\":\"success\",\"result\":\"Hello\"}\n")?;
//! stream.finish()?;
//! let conversation = stream.conversation();
//! assert_eq!(conversation.documents().next().unwrap().text(), "Hello");
//! # Ok::<(), docstream_core::Error>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

pub mod error;
pub mod formats;
pub mod framing;
pub mod limits;
mod normalize;
pub mod price_table;
mod stream;

/// The document model the stream keeps (the `docstream-model` crate).
pub use docstream_model as model;
pub use error::Error;
pub use formats::Format;
pub use limits::Limits;
pub use stream::{DocStream, Options};
