#![no_main]
//! `cargo fuzz run conversions`: see `docstream_fuzz::conversions`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| docstream_fuzz::conversions(data));
