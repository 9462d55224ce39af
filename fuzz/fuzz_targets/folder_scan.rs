#![no_main]
//! `cargo fuzz run folder_scan`: see `docstream_fuzz::folder_scan`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| docstream_fuzz::folder_scan(data));
