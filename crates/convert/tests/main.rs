//! The tests of this crate, one binary (a module a file).

mod convert_roundtrip;
mod seed_002;
