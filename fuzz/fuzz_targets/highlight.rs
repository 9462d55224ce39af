#![no_main]
//! `cargo fuzz run highlight`: see `docstream_fuzz::highlight::highlight`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| docstream_fuzz::highlight::highlight(data));
