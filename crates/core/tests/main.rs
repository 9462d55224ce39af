//! The tests of this crate, one binary (a module a file).

mod api_formats;
mod boundaries;
mod fixtures;
mod gemini_chat;
mod outcomes;
mod provider_formats;
mod provider_samples;
mod samples;
mod seed_003;
mod sse_vectors;
