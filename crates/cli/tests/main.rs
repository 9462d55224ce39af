//! The tests of this crate, one binary (a module a file).

mod agent_formats;
mod cli;
mod cli_convert;
mod cli_follow;
mod cli_html;
mod cli_md;
mod cli_prices;
mod cli_redact;
mod fuzz_replay;
mod hostile_colour_math;
#[cfg(unix)]
mod library_hostile;
mod places;
mod stores;
