//! Conversions between the message and tool formats of AI providers (seed 002).
//!
//! So far: the Gemini JSON Schema clean-up ([`schema`]), tool definitions and
//! `tool_choice` between the flat Anthropic form and the nested OpenAI form ([`tools`]),
//! and the thinking-signature rules ([`thinking`]).

pub mod schema;
pub mod thinking;
pub mod tools;
