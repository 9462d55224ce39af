#![no_main]
//! `cargo fuzz run math`: see `docstream_fuzz::math::math`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| docstream_fuzz::math::math(data));
