//! The tests of this crate, one binary (a module a file).

mod agent_formats;
mod cli;
mod cli_convert;
mod cli_html;
mod stores;
