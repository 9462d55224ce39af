//! The tests of this crate, one binary (a module a file).

mod agent_formats;
mod cli;
mod cli_convert;
mod cli_html;
mod stores;
mod hostile_colour_math;
mod fuzz_replay;
