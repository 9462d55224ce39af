#![no_main]
//! `cargo fuzz run saved_response`: see `docstream_fuzz::saved_response`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| docstream_fuzz::saved_response(data));
