//! Conversions between the message and tool formats of AI providers (seed 002).
//!
//! So far: the Gemini JSON Schema clean-up ([`schema`]), tool definitions and
//! `tool_choice` between the flat Anthropic form and the nested OpenAI form ([`tools`]),
//! the thinking-signature rules ([`thinking`]) and the Gemini stream → OpenAI chunk
//! converter ([`gemini_to_openai`]), and message histories both ways ([`messages`]);
//! [`request`] puts them together for a whole history or request (`docstream convert`).
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

pub mod gemini_to_openai;
pub mod messages;
pub mod request;
pub mod schema;
pub mod thinking;
pub mod tools;
