//! The tests of this crate, one binary (a module a file).

mod library;
