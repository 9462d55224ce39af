//! The tests of this crate, one binary (a module a file).

mod agent_formats;
mod bad_input;
mod cursor_store;
mod history;
mod late_view;
mod markdown_export;
mod one_page;
mod prices;
mod progress_golden;
mod render_golden;
mod render_invariance;
mod render_safety;
mod render_work;
mod sessions;
mod streaming_markdown;
mod stylesheet;
mod subagents;
