#![no_main]
//! `cargo fuzz run store_readers`: see `docstream_fuzz::store_readers`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| docstream_fuzz::store_readers(data));
