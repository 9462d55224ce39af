//! The tests of this crate, one binary (a module a file).

mod conversation;
mod corpus;
