//! Syntax colours for pages written without a script (the CLI's `html` and `export`):
//! the code of rendered HTML gets the same token classes the element's highlighter gives
//! in the browser (`ds-hl-keyword`, `ds-hl-string` … in docs/classes.md), so the
//! stylesheet colours both alike, from the theme.
//!
//! Grammars are syntect's, with the extra ones `bat` ships (TypeScript, TOML, Kotlin,
//! Swift, Dockerfile …) through `two-face`; a token's class comes from its innermost
//! scope that a rule names, the rules following the CSS-variables theme the browser
//! highlighter uses. Code elements with a language (`<code class="language-…">`) are
//! coloured line by line, the grammar's state carried from one line to the next; so are
//! both sides of a diff view, by its file's extension, each side with its own state, the
//! word marks kept, as the browser's colorer does. Native builds only (feature
//! `highlight`).
//!
//! **A budget, not trust.** A grammar can loop forever on a line (syntect has no
//! timeout: a pair of non-consuming `set`s in Sublime's JavaScript spins on `x /*`,
//! trishume/syntect#460) or take seconds on a long one (cubic backtracking in INI on a
//! line of spaces). So each block (a code element, a diff view) is coloured on a
//! worker thread while the caller watches the clock: the block may take
//! [`PER_BYTE`] for each byte the worker has reached (about 100× syntect's usual cost)
//! plus [`PER_BLOCK`], and may borrow up to [`RESERVE`] more (first use of a grammar
//! compiles its patterns; a few grammars take 200 ms on an ordinary line), which blocks
//! that finish early pay back. A block past its budget is written plain, its worker is
//! abandoned (a thread cannot be stopped; it ends if its work ever does) and its grammar
//! is not used again in the process, so one grammar leaves at most one thread spinning;
//! after [`MAX_HANGS`] grammars colouring is off for the rest of the process.
//! [`report`] says what was given up (the CLI prints it); normal pages, far inside the
//! budget, are coloured exactly as before.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, mpsc};
use std::time::{Duration, Instant};

use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxReference, SyntaxSet};

use crate::escape::{push_escaped, unescape};

/// Lines longer than this are shown plain (minified files), as in the browser.
const MAX_LINE: usize = 2000;

/// The time a block may take per byte its lines' parse has reached: about 100× what
/// syntect takes (0.5–2 µs a byte on code in its own language; 15 µs for the slowest
/// grammars, Sass and Less, on code in another).
pub const PER_BYTE: Duration = Duration::from_micros(100);
/// The time every block may take besides (handing the block to the worker and back).
pub const PER_BLOCK: Duration = Duration::from_millis(10);
/// What blocks may borrow beyond their own budget, paid back by blocks that finish
/// early: the first use of a grammar compiles its patterns (up to 200 ms, Scala's), and
/// a few grammars take 200 ms on an ordinary line (Svelte on `&& x.is_none()`).
pub const RESERVE: Duration = Duration::from_secs(1);
/// After this many grammars ran out of time, nothing more is coloured in the process.
pub const MAX_HANGS: usize = 3;

/// Scope selectors and the token kind they give (`""`: plain), as the browser
/// highlighter's theme maps them. The longest selector that is a prefix of a scope wins.
const RULES: &[(&str, &str)] = &[
    ("comment", "comment"),
    ("punctuation.definition.comment", "comment"),
    ("string.quoted.docstring.multi", "comment"),
    ("string", "string"),
    ("markup.fenced_code", "string"),
    ("markup.inline", "string"),
    ("punctuation.definition.string", "string"),
    ("string.regexp", "string-expression"),
    ("string.template", "string-expression"),
    ("string.interpolated", "string-expression"),
    ("entity.name.tag", "string-expression"),
    ("constant.numeric", "constant"),
    ("constant.language", "constant"),
    ("constant.character", "constant"),
    ("constant.other.placeholder", "constant"),
    ("variable.language", "constant"),
    ("variable.other.constant", "constant"),
    ("meta.property-name", "constant"),
    ("support", "constant"),
    ("keyword", "keyword"),
    ("keyword.operator.accessor", ""),
    ("storage.type", "keyword"),
    ("storage.modifier", "keyword"),
    ("support.type.property-name.json", "keyword"),
    ("punctuation.separator.key-value", "keyword"),
    ("entity.name.tag.yaml", "keyword"),
    ("variable.parameter", "parameter"),
    ("entity.name.function", "function"),
    ("support.function", "function"),
    ("variable.function", "function"),
    ("entity.name.type", "function"),
    ("entity.other.inherited-class", "function"),
    ("entity.other.attribute-name", "function"),
    ("markup.underline.link", "link"),
    ("markup.inserted", "inserted"),
    ("markup.deleted", "deleted"),
    ("markup.changed", "changed"),
];

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(two_face::syntax::extra_newlines)
}

/// The grammar for a fence name or extension (`rust`, `ts`, `sh`, `c++` …); `None` for
/// plain text and names no grammar knows.
fn syntax_for(lang: &str) -> Option<&'static SyntaxReference> {
    let set = syntaxes();
    let lang = match lang {
        "c++" => "cpp",
        "shell" | "console" | "zsh" => "bash",
        "dockerfile" => "Dockerfile",
        // `js`'s grammar (bat's JavaScript (Babel)), as the browser colours both alike.
        // By name and by its `.htc` extension these would find Sublime's older
        // JavaScript, which loops forever on a line as common as `x /*` (a pair of
        // non-consuming `set`s, trishume/syntect#460; fixing the grammar as it loads
        // means rebuilding the whole syntax set, 1.5 s a process).
        "javascript" | "htc" => "js",
        l => l,
    };
    set.find_syntax_by_token(lang)
        .filter(|s| s.name != "Plain Text")
}

/// The name of the grammar that colours a fence's language or a file's extension
/// (`rust` → `Rust`, `ts` → `TypeScript`); `None` when nothing colours it.
pub fn grammar_name(lang: &str) -> Option<&'static str> {
    syntax_for(lang).map(|s| s.name.as_str())
}

/// The grammar for a file path: by its extension, else its name (`Dockerfile`).
fn syntax_for_path(path: &str) -> Option<&'static SyntaxReference> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => syntax_for(&ext.to_ascii_lowercase()),
        _ => syntax_for(name),
    }
}

/// The kind of the token a scope stack ends in, innermost scope first.
struct Kinds(HashMap<Scope, Option<&'static str>>);

impl Kinds {
    fn of(&mut self, stack: &ScopeStack) -> &'static str {
        for scope in stack.as_slice().iter().rev() {
            let kind = *self.0.entry(*scope).or_insert_with(|| rule_for(*scope));
            if let Some(kind) = kind {
                return kind;
            }
        }
        ""
    }
}

fn rule_for(scope: Scope) -> Option<&'static str> {
    let name = scope.build_string();
    RULES
        .iter()
        .filter(|(sel, _)| {
            name.strip_prefix(sel)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        })
        .max_by_key(|(sel, _)| sel.len())
        .map(|(_, kind)| *kind)
}

/// One code element's lines, tokenized in order.
struct Block<'p> {
    state: ParseState,
    stack: ScopeStack,
    /// A line could not be parsed: the rest is plain.
    broken: bool,
    /// The bytes of the lines handed to the grammar so far, for the watch (shared by
    /// the two sides of a diff).
    progress: &'p AtomicUsize,
}

impl<'p> Block<'p> {
    fn new(syntax: &SyntaxReference, progress: &'p AtomicUsize) -> Block<'p> {
        Block {
            state: ParseState::new(syntax),
            stack: ScopeStack::new(),
            broken: false,
            progress,
        }
    }

    /// Appends one line (text without its newline), coloured.
    fn line(&mut self, text: &str, kinds: &mut Kinds, out: &mut String) {
        match self.runs(text, kinds) {
            Some(runs) => {
                let mut start = 0;
                for (end, kind) in runs {
                    span(out, &text[start..end], kind);
                    start = end;
                }
            }
            None => push_escaped(out, text),
        }
    }

    /// One line's tokens as runs of one kind, each `(end, kind)` from where the last
    /// ended, covering the line; `None` when the line stays plain (too long, or the
    /// grammar failed on it or before it).
    fn runs(&mut self, text: &str, kinds: &mut Kinds) -> Option<Vec<(usize, &'static str)>> {
        if self.broken || text.len() > MAX_LINE {
            return None;
        }
        let line = format!("{text}\n");
        self.progress.fetch_add(line.len(), Ordering::Relaxed);
        let Ok(ops) = self.state.parse_line(&line, syntaxes()) else {
            self.broken = true;
            return None;
        };
        let mut runs = Vec::new();
        let mut at = 0;
        let mut kind = kinds.of(&self.stack);
        for (pos, op) in ops {
            let pos = pos.min(text.len());
            if pos > at {
                let now = kinds.of(&self.stack);
                if now != kind {
                    runs.push((at, kind));
                    kind = now;
                }
                at = pos;
            }
            if self.stack.apply(&op).is_err() {
                self.broken = true;
            }
        }
        let now = kinds.of(&self.stack);
        if now != kind && at < text.len() {
            runs.push((at, kind));
            kind = now;
        }
        runs.push((text.len(), kind));
        runs.retain(|&(end, _)| end > 0);
        Some(runs)
    }

    /// Colours the text of an HTML fragment (a diff cell) whose elements (word marks)
    /// stay as they are: each text node is cut where the tokens change kind.
    fn paint(&mut self, inner: &str, kinds: &mut Kinds, out: &mut String) {
        let plain: String = segments(inner)
            .filter(|&(tag, _)| !tag)
            .map(|(_, s)| unescape(s))
            .collect();
        let Some(runs) = self.runs(&plain, kinds) else {
            out.push_str(inner);
            return;
        };
        let mut runs = runs.into_iter().peekable();
        let mut at = 0;
        for (tag, s) in segments(inner) {
            if tag {
                out.push_str(s);
                continue;
            }
            let text = unescape(s);
            let end = at + text.len();
            let mut from = at;
            while from < end {
                let Some(&(run_end, kind)) = runs.peek() else {
                    break;
                };
                let to = run_end.min(end);
                span(out, &text[from - at..to - at], kind);
                from = to;
                if run_end <= end {
                    runs.next();
                }
            }
            at = end;
        }
    }
}

/// An HTML fragment as its tags (`true`) and text runs (`false`), in order.
fn segments(html: &str) -> impl Iterator<Item = (bool, &str)> {
    let mut rest = html;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = if rest.starts_with('<') {
            rest.find('>').map_or(rest.len(), |i| i + 1)
        } else {
            rest.find('<').unwrap_or(rest.len())
        };
        let (piece, next) = rest.split_at(end);
        rest = next;
        Some((piece.starts_with('<'), piece))
    })
}

fn span(out: &mut String, text: &str, kind: &str) {
    if text.is_empty() {
        return;
    }
    if kind.is_empty() {
        push_escaped(out, text);
        return;
    }
    out.push_str("<span class=\"ds-hl-");
    out.push_str(kind);
    out.push_str("\">");
    push_escaped(out, text);
    out.push_str("</span>");
}

const CODE_OPEN: &str = "<code class=\"language-";
const CODE_CLOSE: &str = "</code>";
const LINE_OPEN: &str = "<span class=\"ds-line\"";
/// A file edit's header names its file before its diff views.
const PATH_OPEN: &str = "<span class=\"ds-path\">";
const DIFF_OPEN: &str = "<table class=\"ds-diff-";
const TABLE_CLOSE: &str = "</table>";
const CELL_OPEN: &str = "<td class=\"ds-diff-text";
const CELL_CLOSE: &str = "</td>";

/// `html` with the code of every `<code class="language-…">` element and both sides of
/// every diff view coloured; the same text when there is none. Each block is coloured
/// within its budget (the module's doc) or left plain; [`report`] says which grammars
/// ran out of time.
pub fn highlight_html(html: &str) -> Cow<'_, str> {
    if !html.contains(CODE_OPEN) && !html.contains(DIFF_OPEN) {
        return Cow::Borrowed(html);
    }
    let mut colourer = colourer().lock().unwrap_or_else(|e| e.into_inner());
    let mut out = String::with_capacity(html.len() + html.len() / 4);
    let mut rest = html;
    // The file the diff views that follow show (the last path a header named).
    let mut path = Cow::Borrowed("");
    let mut markers = Markers::new(html);
    loop {
        let base = html.len() - rest.len();
        let Some((at, marker)) = markers.next(base) else {
            break;
        };
        let at = at - base;
        let after = &rest[at + marker.len()..];
        out.push_str(&rest[..at + marker.len()]);
        rest = after;
        if marker == PATH_OPEN {
            let end = after.find('<').unwrap_or(after.len());
            path = Cow::Owned(unescape(&after[..end]).into_owned());
        } else if marker == DIFF_OPEN {
            let end = after.find(TABLE_CLOSE).unwrap_or(after.len());
            let table = &after[..end];
            match syntax_for_path(&path).and_then(|s| colourer.colour(s, Kind::Diff, table)) {
                Some(coloured) => out.push_str(&coloured),
                None => out.push_str(table),
            }
            rest = &after[end..];
        } else {
            let (Some(quote), Some(close)) = (after.find('"'), after.find(CODE_CLOSE)) else {
                break;
            };
            let Some(tag_end) = after[quote..].find('>').map(|i| quote + i + 1) else {
                break;
            };
            out.push_str(&after[..tag_end]);
            let inner = &after[tag_end..close.max(tag_end)];
            let syntax = syntax_for(&after[..quote]);
            match syntax.and_then(|s| colourer.colour(s, Kind::Code, inner)) {
                Some(coloured) => out.push_str(&coloured),
                None => out.push_str(inner),
            }
            rest = &after[close.max(tag_end)..];
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Where in a page each marker a block starts with next occurs, looked for again only
/// once the reading has passed it: a page's blocks cost one scan for each marker, not
/// one scan of the rest of the page for each block (3,000 code blocks took 42 s).
struct Markers<'h> {
    html: &'h str,
    /// For [`CODE_OPEN`], [`DIFF_OPEN`], [`PATH_OPEN`]: where it occurs from the last
    /// place looked at; `None` when it does not occur again.
    at: [Option<usize>; 3],
}

impl<'h> Markers<'h> {
    const ALL: [&'static str; 3] = [CODE_OPEN, DIFF_OPEN, PATH_OPEN];

    fn new(html: &'h str) -> Markers<'h> {
        Markers {
            html,
            at: Self::ALL.map(|m| html.find(m)),
        }
    }

    /// The first marker at or after `from` (a character boundary), and where it is.
    fn next(&mut self, from: usize) -> Option<(usize, &'static str)> {
        for (at, marker) in self.at.iter_mut().zip(Self::ALL) {
            if at.is_some_and(|at| at < from) {
                *at = self.html[from..].find(marker).map(|i| from + i);
            }
        }
        self.at
            .iter()
            .zip(Self::ALL)
            .filter_map(|(at, marker)| at.map(|at| (at, marker)))
            .min()
    }
}

/// What colouring gave up on in this process: the grammars that ran out of time, and
/// whether colouring stopped altogether ([`MAX_HANGS`] of them). The library does not
/// print it; the CLI says it once, at the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The grammars' names, in the order they ran out of time (`JavaScript`).
    pub grammars: Vec<String>,
    /// Nothing was coloured after the last of them.
    pub stopped: bool,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "colouring ")?;
        for (i, name) in self.grammars.iter().enumerate() {
            let sep = match i {
                0 => "",
                i if i + 1 == self.grammars.len() => " and ",
                _ => ", ",
            };
            write!(f, "{sep}{name}")?;
        }
        write!(f, " code took too long, so that code is shown plain")?;
        if self.stopped {
            write!(f, "; colouring stopped there for the rest of the output")?;
        }
        Ok(())
    }
}

/// What colouring gave up on so far in this process; `None` when nothing.
pub fn report() -> Option<Report> {
    let colourer = colourer().lock().unwrap_or_else(|e| e.into_inner());
    (!colourer.hung.is_empty()).then(|| Report {
        grammars: colourer.hung.iter().map(|s| s.to_string()).collect(),
        stopped: colourer.hung.len() >= MAX_HANGS,
    })
}

/// What a block to colour is.
#[derive(Clone, Copy)]
enum Kind {
    /// A code element's content.
    Code,
    /// A diff view's rows.
    Diff,
}

/// A block for the worker: its grammar, what it is, its HTML.
struct Job {
    syntax: &'static SyntaxReference,
    kind: Kind,
    html: String,
}

/// The thread that colours blocks, one at a time.
struct Worker {
    jobs: mpsc::Sender<Job>,
    done: mpsc::Receiver<String>,
    /// The bytes of the current block's lines handed to its grammar so far.
    progress: Arc<AtomicUsize>,
}

impl Worker {
    fn spawn() -> Option<Worker> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (outbox, done) = mpsc::channel();
        let progress = Arc::new(AtomicUsize::new(0));
        let reached = Arc::clone(&progress);
        std::thread::Builder::new()
            .name("docstream-colour".into())
            // The main thread's size: the grammars ran there before.
            .stack_size(8 << 20)
            .spawn(move || {
                let mut kinds = Kinds(HashMap::new());
                for job in inbox {
                    let mut out = String::with_capacity(job.html.len() + job.html.len() / 2);
                    match job.kind {
                        Kind::Code => {
                            let mut block = Block::new(job.syntax, &reached);
                            code(&job.html, &mut block, &mut kinds, &mut out);
                        }
                        Kind::Diff => {
                            diff_table(&job.html, job.syntax, &reached, &mut kinds, &mut out)
                        }
                    }
                    if outbox.send(out).is_err() {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Worker {
            jobs,
            done,
            progress,
        })
    }
}

/// The budget's arithmetic, apart from the clock.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Budget {
    /// What blocks may still borrow.
    reserve: Duration,
}

impl Budget {
    const FULL: Budget = Budget { reserve: RESERVE };

    /// The time a block may have taken once its lines reached `bytes`.
    fn allowance(self, bytes: usize) -> Duration {
        let bytes = u32::try_from(bytes).unwrap_or(u32::MAX);
        self.reserve + PER_BLOCK + PER_BYTE.saturating_mul(bytes)
    }

    /// The budget after a block of `bytes` took `spent`: what it did not use of its own
    /// budget pays the reserve back, up to [`RESERVE`].
    fn after(self, bytes: usize, spent: Duration) -> Budget {
        Budget {
            reserve: self.allowance(bytes).saturating_sub(spent).min(RESERVE),
        }
    }
}

/// The process's colouring: its worker, its budget, the grammars that ran out of time.
struct Colourer {
    worker: Option<Worker>,
    budget: Budget,
    hung: Vec<&'static str>,
}

fn colourer() -> &'static Mutex<Colourer> {
    static COLOURER: Mutex<Colourer> = Mutex::new(Colourer {
        worker: None,
        budget: Budget::FULL,
        hung: Vec::new(),
    });
    &COLOURER
}

impl Colourer {
    /// `html` coloured by the worker within the budget; `None` when it ran out of time
    /// (or colouring is off, or the grammar ran out of time before).
    fn colour(
        &mut self,
        syntax: &'static SyntaxReference,
        kind: Kind,
        html: &str,
    ) -> Option<String> {
        if self.hung.len() >= MAX_HANGS || self.hung.contains(&syntax.name.as_str()) {
            return None;
        }
        if self.worker.is_none() {
            self.worker = Worker::spawn();
        }
        let worker = self.worker.as_ref()?;
        worker.progress.store(0, Ordering::Relaxed);
        let start = Instant::now();
        let job = Job {
            syntax,
            kind,
            html: html.to_owned(),
        };
        if worker.jobs.send(job).is_err() {
            self.worker = None;
            return None;
        }
        loop {
            let bytes = worker.progress.load(Ordering::Relaxed);
            let left = self.budget.allowance(bytes).saturating_sub(start.elapsed());
            match worker.done.recv_timeout(left) {
                Ok(out) => {
                    let bytes = worker.progress.load(Ordering::Relaxed);
                    self.budget = self.budget.after(bytes, start.elapsed());
                    return Some(out);
                }
                // The lines went on since the allowance was reckoned: more time.
                Err(mpsc::RecvTimeoutError::Timeout)
                    if worker.progress.load(Ordering::Relaxed) != bytes => {}
                // Out of time (or the worker failed): the block stays plain, the worker
                // is left to itself, the grammar is not used again.
                Err(_) => {
                    self.worker = None;
                    self.budget = Budget::FULL;
                    self.hung.push(syntax.name.as_str());
                    return None;
                }
            }
        }
    }
}

/// A diff view's rows (from after `<table class="ds-diff-` to before `</table>`): the
/// old side (removed and context lines) and the new side (added and context lines) are
/// each read in order with their own grammar state; a context line is coloured as the
/// new side reads it.
fn diff_table(
    table: &str,
    syntax: &SyntaxReference,
    progress: &AtomicUsize,
    kinds: &mut Kinds,
    out: &mut String,
) {
    let split = table.starts_with("split");
    let (mut old, mut new) = (Block::new(syntax, progress), Block::new(syntax, progress));
    let mut rest = table;
    // Where the row of the last cell began (in the split view, a row's first text cell
    // is the old side).
    let mut last_row = None;
    let mut consumed = 0;
    while let Some(at) = rest.find(CELL_OPEN) {
        let Some(open_end) = rest[at..].find('>').map(|i| at + i + 1) else {
            break;
        };
        let Some(close) = rest[open_end..].find(CELL_CLOSE).map(|i| open_end + i) else {
            break;
        };
        let tag = &rest[at..open_end];
        let row_start = table[..consumed + at].rfind("<tr");
        let row = row_start.map_or("", |r| &table[r..table[r..].find('>').map_or(r, |e| r + e)]);
        let first_in_row = last_row != Some(row_start);
        last_row = Some(row_start);
        out.push_str(&rest[..open_end]);
        let inner = &rest[open_end..close];
        let class = if split { tag } else { row };
        if class.contains("ds-diff-empty") {
            out.push_str(inner);
        } else if class.contains("ds-diff-removed") {
            old.paint(inner, kinds, out);
        } else if class.contains("ds-diff-added") {
            new.paint(inner, kinds, out);
        } else if split && first_in_row {
            old.paint(inner, kinds, out);
        } else if split {
            new.paint(inner, kinds, out);
        } else {
            let mut ignored = String::new();
            old.paint(inner, kinds, &mut ignored);
            new.paint(inner, kinds, out);
        }
        consumed += close;
        rest = &rest[close..];
    }
    out.push_str(rest);
}

/// One code element's content: its `ds-line` spans coloured line by line, or, with no
/// markup at all, its text.
fn code(inner: &str, block: &mut Block, kinds: &mut Kinds, out: &mut String) {
    if !inner.contains('<') {
        let text = unescape(inner);
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            block.line(line, kinds, out);
        }
        return;
    }
    let mut rest = inner;
    while let Some(at) = rest.find(LINE_OPEN) {
        let Some(open_end) = rest[at..].find('>').map(|i| at + i + 1) else {
            break;
        };
        let Some(text_end) = rest[open_end..].find('<').map(|i| open_end + i) else {
            break;
        };
        out.push_str(&rest[..open_end]);
        block.line(&unescape(&rest[open_end..text_end]), kinds, out);
        rest = &rest[text_end..];
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_a_code_block_get_token_classes() {
        let html = "<pre class=\"ds-code\"><code class=\"language-rust\"><span class=\"ds-line\" data-ln=\"1\">fn main() { let s = &quot;a&lt;b&quot;; // done</span>\n</code></pre>";
        let out = highlight_html(html);
        assert_eq!(
            out,
            "<pre class=\"ds-code\"><code class=\"language-rust\"><span class=\"ds-line\" data-ln=\"1\"><span class=\"ds-hl-keyword\">fn</span> <span class=\"ds-hl-function\">main</span>() { <span class=\"ds-hl-keyword\">let</span> s <span class=\"ds-hl-keyword\">=</span> <span class=\"ds-hl-string\">&quot;a&lt;b&quot;</span>; <span class=\"ds-hl-comment\">// done</span></span>\n</code></pre>"
        );
    }

    #[test]
    fn state_carries_across_lines_and_plain_code_is_read_too() {
        let html = "<code class=\"language-python\">x = \"\"\"one\ntwo\"\"\"\n</code>";
        let out = highlight_html(html);
        assert!(
            out.contains("<span class=\"ds-hl-string\">two&quot;&quot;&quot;</span>"),
            "{out}"
        );
    }

    #[test]
    fn unknown_languages_and_pages_without_code_are_left_alone() {
        let page = "<p>no code</p>";
        assert!(matches!(highlight_html(page), Cow::Borrowed(_)));
        let text = "<code class=\"language-text\"><span class=\"ds-line\" data-ln=\"1\">fn x</span></code>";
        assert_eq!(highlight_html(text), text);
        let unknown = "<code class=\"language-nosuchlang\">fn x</code>";
        assert_eq!(highlight_html(unknown), unknown);
    }

    /// `html` without the token spans `highlight_html` adds.
    fn uncoloured(html: &str) -> String {
        let mut out = String::new();
        let mut rest = html;
        while let Some(at) = rest.find("<span class=\"ds-hl-") {
            out.push_str(&rest[..at]);
            let open_end = at + rest[at..].find('>').unwrap() + 1;
            let close = open_end + rest[open_end..].find("</span>").unwrap();
            out.push_str(&rest[open_end..close]);
            rest = &rest[close + "</span>".len()..];
        }
        out.push_str(rest);
        out
    }

    #[test]
    fn both_sides_of_a_diff_are_coloured_by_the_file_extension_word_marks_kept() {
        let unified = "<span class=\"ds-path\">src/a.rs</span><table class=\"ds-diff-unified\">\n<tr class=\"ds-diff-context\"><td class=\"ds-ln\">1</td><td class=\"ds-ln\">1</td><td class=\"ds-diff-sign\"> </td><td class=\"ds-diff-text\">/* open</td></tr>\n<tr class=\"ds-diff-removed\"><td class=\"ds-ln\">2</td><td class=\"ds-ln\"></td><td class=\"ds-diff-sign\">−</td><td class=\"ds-diff-text\">*/ fn <mark class=\"ds-diff-word\">old_name()</mark> {}</td></tr>\n<tr class=\"ds-diff-added\"><td class=\"ds-ln\"></td><td class=\"ds-ln\">2</td><td class=\"ds-diff-sign\">+</td><td class=\"ds-diff-text\">*/ fn <mark class=\"ds-diff-word\">new_name()</mark> { &quot;s&quot; }</td></tr>\n</table>";
        let out = highlight_html(unified);
        assert_eq!(uncoloured(&out), unified, "only token spans are added");
        // The comment opened on a context line carries into both sides.
        assert!(out.contains("<td class=\"ds-diff-text\"><span class=\"ds-hl-comment\">*/</span> <span class=\"ds-hl-keyword\">fn</span> <mark class=\"ds-diff-word\"><span class=\"ds-hl-function\">old_name</span>()</mark> {}</td>"), "{out}");
        assert!(
            out.contains("<span class=\"ds-hl-string\">&quot;s&quot;</span>"),
            "{out}"
        );
        let split = "<span class=\"ds-path\">b.py</span><table class=\"ds-diff-split\">\n<tr><td class=\"ds-ln\">1</td><td class=\"ds-diff-text ds-diff-removed\">def f(): pass</td><td class=\"ds-ln\">1</td><td class=\"ds-diff-text ds-diff-added\">def g(): pass</td></tr>\n<tr><td class=\"ds-ln\"></td><td class=\"ds-diff-text ds-diff-empty\"></td><td class=\"ds-ln\">2</td><td class=\"ds-diff-text ds-diff-added\">return 1</td></tr>\n</table>";
        let out = highlight_html(split);
        assert_eq!(uncoloured(&out), split);
        assert_eq!(
            out.matches("<span class=\"ds-hl-keyword\">def</span>")
                .count(),
            2,
            "{out}"
        );
        let unknown = "<span class=\"ds-path\">notes.unknownext</span><table class=\"ds-diff-unified\"><tr class=\"ds-diff-added\"><td class=\"ds-diff-text\">fn x</td></tr></table>";
        assert_eq!(highlight_html(unknown), unknown);
    }

    #[test]
    fn every_fixture_page_keeps_its_text_when_coloured() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("tests/fixtures");
        let mut coloured = 0;
        for dir in std::fs::read_dir(root).unwrap() {
            for file in std::fs::read_dir(dir.unwrap().path()).unwrap() {
                let path = file.unwrap().path();
                if !path.to_string_lossy().ends_with(".expected.html") {
                    continue;
                }
                let html = std::fs::read_to_string(&path).unwrap();
                let out = highlight_html(&html);
                assert_eq!(uncoloured(&out), html, "{}", path.display());
                coloured +=
                    usize::from(out.contains("<td class=\"ds-diff-text\"><span class=\"ds-hl-"));
            }
        }
        assert!(coloured > 5, "fixtures with coloured diffs: {coloured}");
    }

    /// Finding each block is one scan of the page, not one of its rest per block: a
    /// page of 20,000 code elements scanned 20,000 times half a megabyte before.
    #[test]
    fn many_blocks_cost_one_scan() {
        let page = "<p>x</p><code class=\"language-nosuchlang\">y</code>".repeat(20_000);
        let start = Instant::now();
        assert_eq!(highlight_html(&page), page);
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
        let mut markers =
            Markers::new("a<span class=\"ds-path\">p</span><code class=\"language-x\">");
        assert_eq!(markers.next(0), Some((1, PATH_OPEN)));
        assert_eq!(markers.next(2), Some((31, CODE_OPEN)));
        assert_eq!(markers.next(32), None);
    }

    /// A block may take its bytes' share and what the reserve holds; what it leaves of
    /// its own share pays the reserve back, up to the full reserve.
    #[test]
    fn the_budget_grows_with_the_bytes_reached_and_is_paid_back() {
        let full = Budget::FULL;
        assert_eq!(full.allowance(0), RESERVE + PER_BLOCK);
        assert_eq!(
            full.allowance(10_000),
            RESERVE + PER_BLOCK + Duration::from_secs(1)
        );
        // Quick blocks keep the reserve full.
        assert_eq!(full.after(100, Duration::from_millis(1)), full);
        // A slow block borrows; quick blocks pay it back.
        let borrowed = full.after(100, Duration::from_millis(600));
        assert_eq!(borrowed.reserve, Duration::from_millis(420));
        let repaid = borrowed.after(50_000, Duration::from_millis(100));
        assert_eq!(repaid, full);
        // A block that took all it could leaves nothing to borrow.
        assert_eq!(
            full.after(0, Duration::from_secs(5)).reserve,
            Duration::ZERO
        );
        // The share of a huge block saturates instead of overflowing.
        assert!(full.allowance(usize::MAX) > Duration::from_secs(400_000));
    }

    #[test]
    fn javascript_by_any_name_gets_the_grammar_that_does_not_loop() {
        let js = grammar_name("js");
        assert_eq!(js, Some("JavaScript (Babel)"));
        assert_eq!(grammar_name("javascript"), js);
        assert_eq!(grammar_name("htc"), js);
        assert_eq!(
            syntax_for_path("src/app.javascript").map(|s| s.name.as_str()),
            js
        );
        let html =
            "<code class=\"language-javascript\">x /*\nexport default {} /* settings */</code>";
        let out = highlight_html(html);
        assert!(
            out.contains("<span class=\"ds-hl-comment\">/*</span>"),
            "{out}"
        );
    }

    #[test]
    fn the_report_names_the_grammars_and_says_when_colouring_stopped() {
        let one = Report {
            grammars: vec!["JavaScript".into()],
            stopped: false,
        };
        assert_eq!(
            one.to_string(),
            "colouring JavaScript code took too long, so that code is shown plain"
        );
        let three = Report {
            grammars: vec!["INI".into(), "Lua".into(), "Typst".into()],
            stopped: true,
        };
        assert_eq!(
            three.to_string(),
            "colouring INI, Lua and Typst code took too long, so that code is shown plain; \
             colouring stopped there for the rest of the output"
        );
    }

    #[test]
    fn cut_markup_is_copied_as_it_is() {
        for html in [
            "<code class=\"language-rust",
            "<code class=\"language-rust\">fn",
            "<code class=\"language-rust\"><span class=\"ds-line\">fn</code>",
            "<span class=\"ds-path\">a.rs</span><table class=\"ds-diff-unified\"><tr class=\"ds-diff-added\"><td class=\"ds-diff-text\">fn",
            "<span class=\"ds-path\">a.rs</span><table class=\"ds-diff-split\"><tr><td class=\"ds-diff-text\"",
            "<span class=\"ds-path",
        ] {
            let _ = highlight_html(html);
        }
        assert_eq!(
            highlight_html("a<code class=\"language-rust"),
            "a<code class=\"language-rust"
        );
    }
}
