#![no_main]
//! `cargo fuzz run sqlite_store`: see `docstream_fuzz::sqlite_store`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| docstream_fuzz::sqlite_store(data));
