//! Conversions between the message and tool formats of AI providers (seed 002).
//!
//! Only the Gemini JSON Schema clean-up is here so far; see [`schema`].

pub mod schema;
