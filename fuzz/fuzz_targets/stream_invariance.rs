#![no_main]
//! `cargo fuzz run stream_invariance`: see `docstream_fuzz::stream_invariance`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| docstream_fuzz::stream_invariance(data));
