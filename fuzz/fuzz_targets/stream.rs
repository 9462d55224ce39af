#![no_main]
//! `cargo fuzz run stream`: see `docstream_fuzz::stream`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| docstream_fuzz::stream(data));
