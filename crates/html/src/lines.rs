//! Counting a text's lines, as code captions and progress lines say them.

/// Lines of a code text: complete ones, and an unfinished last one.
pub(crate) fn line_count(text: &str) -> u64 {
    let newlines = memchr::memchr_iter(b'\n', text.as_bytes()).count() as u64;
    newlines + u64::from(!text.is_empty() && !text.ends_with('\n'))
}
