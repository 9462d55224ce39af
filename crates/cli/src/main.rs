//! `docstream`: render a transcript file from the shell.
//!
//! ```text
//! docstream json [--format F] [--chunk N] FILE|-
//! docstream html [--format F] [--chunk N] [--locale en|de] [--redact] [--prices FILE] FILE|-
//! docstream html --follow [--port N] [--format F] [--locale en|de] [--prices FILE] FILE
//! docstream md [--format F] [--chunk N] [--locale en|de] [--no-redact] FILE|-
//! docstream text [--format F] [--chunk N] [--locale en|de] FILE|-
//! docstream convert --to openai|anthropic FILE|-
//! docstream list [--json] [PATH]
//! docstream json|html|md --conversation ID [PATH]
//! docstream export [--to html|md] --out DIR [PATH]
//! docstream export [--to html|md] --conversation ID [PATH]
//! ```
//!
//! `list`, `export` and `--conversation` read stores (Cursor's `state.vscdb`, Claude
//! Code's `projects/` folder, folders of transcripts) through [`docstream_library`].

use std::borrow::Cow;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use docstream_convert::request::{self, Dialect};
use docstream_core::{DocStream, Format, Options};
use docstream_html::HtmlView;
use docstream_html::labels::Locale;
use docstream_html::markdown_export::{Redact, conversation_markdown_with};
use docstream_html::patch::PageModel;
use docstream_html::{RenderOptions, page, progress, render_conversation};

mod export_md;
mod follow;
mod places;

const USAGE: &str =
    "usage: docstream json|html|md|text [--format FORMAT] [--chunk N] [--locale en|de] [--no-highlight] FILE|-
       docstream html --follow [--port N] FILE
       docstream convert --to openai|anthropic FILE|-
       docstream list [--json] [PATH]
       docstream json|html|md --conversation ID [PATH]
       docstream export [--to html|md] --out DIR [PATH]
       docstream export [--to html|md] --conversation ID [PATH]

  json        print the normalised conversation as JSON
  html        write a standalone HTML page
  --follow    html: serve FILE, still being written, as a page on
              http://127.0.0.1 that streams as the agent appends to it (the
              address goes to stderr; Ctrl-C stops). A file truncated or
              replaced is read afresh, with a note on the page
  --port N    --follow: the port to listen on (default: one that is free)
  md          print the conversation as GitHub-flavoured Markdown (turns, prose,
              code, diffs, commands and their output; tool calls, thinking and
              sub-agents folded in <details>; usage at the end)
  text        print one progress line per agent action
  convert     convert a message history (an array, or an object with \"messages\")
              between the Anthropic and the OpenAI form; prints JSON
  --to        convert: the form to convert to, openai or anthropic;
              export: what to write, html (default) or md
  list        list the conversations of a store or folder: a Cursor state.vscdb,
              a Claude Code projects/ folder (or one project's), a folder of
              transcripts; id, date, counts, title (--json: every field as JSON).
              With no PATH: each agent's default place (Cursor, Claude Code,
              Codex, Gemini CLI, Copilot CLI, OpenCode), which were found said
              on stderr
  --conversation ID
              json/html/md/export: the conversation ID of the store PATH (ids
              from list; with no PATH, of the default places), printed
  export      write every conversation of PATH to --out DIR: --to html (the
              default) a static site, index.html with search and one page per
              conversation; --to md index.md and c/ID.md per conversation.
              With no PATH: each agent's default place found, to DIR/AGENT/
              (cursor, claude-code, codex, gemini-cli, copilot-cli, opencode)
  --locale    language of labels: en (default) or de
  --no-redact md, export: keep credential-shaped values (they are masked as
              [redacted: kind] by default; the count goes to stderr)
  --redact    html: mask credential-shaped values (API keys, tokens, private keys,
              passwords) as [redacted: kind]; the count goes to the page header
              and to stderr
  --prices FILE
              html, md, json, list, export: a price table (JSON: per model id,
              US dollars per million tokens: {\"gpt-5\": {\"input\": 1.25,
              \"output\": 10, \"cacheRead\": 0.125, \"cacheWrite\": 0}};
              \"reasoning\" prices reasoning tokens apart; a model matched by
              exact id, then by the longest prefix). A response whose
              source states no cost gets one computed from it, marked as computed
              (≈); a stated cost always wins. No price is built in
  --no-highlight
              html: leave the code uncoloured (colouring reads about
              1.5 MB of code a second)
  --format    the input's format (never the output's): auto (default), ";

/// Why the CLI stops: each has its exit code.
enum Failure {
    /// `--help`: usage on stdout, exit 0.
    Help,
    /// `--version`: the version on stdout, exit 0.
    Version,
    /// A wrong command line: message and usage on stderr, exit 2.
    Usage(String),
    /// Anything else (unreadable or unrecognised input): message on stderr, exit 1.
    Failed(String),
    /// Done in part (a store in a folder could not be read): the messages on stderr,
    /// exit 1.
    Partial(Vec<String>),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Failed(message)
    }
}

struct Args {
    command: String,
    format: Option<Format>,
    chunk: Option<usize>,
    locale: Locale,
    /// `convert --to`: the form to convert to.
    to: Option<Dialect>,
    /// `export --to md`: Markdown rather than HTML.
    to_md: bool,
    input: String,
    /// No PATH to `list`, `export --out` or `--conversation`: the agents' default
    /// places (`input` is empty).
    places: bool,
    conversation: Option<String>,
    out: Option<String>,
    json: bool,
    /// Colour the code of HTML pages.
    highlight: bool,
    /// `html --redact`: mask secrets (docstream-redact).
    redact: bool,
    /// `md`/`export --no-redact`: keep secrets (masked by default).
    no_redact: bool,
    /// `--prices FILE`: the price table's file, read by [`render_options`].
    prices: Option<String>,
    /// `html --follow`: serve the file as it grows.
    follow: bool,
    /// `--follow --port N`.
    port: u16,
}

fn usage() -> String {
    format!(
        "{USAGE}{}\n  --chunk N   feed the input in N-byte chunks\n  FILE|-      a transcript, or - for standard input",
        Format::NAMES.join(", ")
    )
}

fn parse_args() -> Result<Args, Failure> {
    parse_args_inner().map_err(|e| match e {
        Failure::Failed(m) => Failure::Usage(m),
        other => other,
    })
}

/// The value of the option just read.
fn value(parser: &mut lexopt::Parser) -> Result<String, String> {
    let v = parser.value().map_err(|e| e.to_string())?;
    lexopt::ValueExt::string(v).map_err(|e| e.to_string())
}

fn parse_args_inner() -> Result<Args, Failure> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_env();
    let (mut command, mut format, mut chunk, mut input) = (None, None, None, None);
    let mut locale = Locale::En;
    let mut to_name: Option<String> = None;
    let (mut conversation, mut out, mut json) = (None, None, false);
    let mut highlight = true;
    let (mut redact, mut no_redact) = (false, false);
    let mut prices = None;
    let (mut follow, mut port) = (false, None);
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Long("format") => {
                let name = value(&mut parser)?;
                format = Format::parse(&name).map_err(|e| e.to_string())?;
            }
            Long("chunk") => {
                let n: usize = parser
                    .value()
                    .map_err(|e| e.to_string())?
                    .parse()
                    .map_err(|e| format!("--chunk: {e}"))?;
                if n == 0 {
                    return Err("--chunk must be at least 1".to_owned().into());
                }
                chunk = Some(n);
            }
            Long("locale") => {
                let name = value(&mut parser)?;
                locale =
                    Locale::parse(&name).ok_or_else(|| format!("--locale: unknown {name:?}"))?;
            }
            Long("to") => {
                to_name = Some(value(&mut parser)?);
            }
            Long("conversation") => {
                conversation = Some(value(&mut parser)?);
            }
            Long("out") => {
                out = Some(value(&mut parser)?);
            }
            Long("json") => json = true,
            Long("no-highlight") => highlight = false,
            Long("redact") => redact = true,
            Long("no-redact") => no_redact = true,
            Long("prices") => prices = Some(value(&mut parser)?),
            Long("follow") => follow = true,
            Long("port") => {
                let n = value(&mut parser)?;
                port = Some(n.parse::<u16>().map_err(|e| format!("--port {n}: {e}"))?);
            }
            Long("help") | Short('h') => return Err(Failure::Help),
            Long("version") | Short('V') => return Err(Failure::Version),
            Value(v) if command.is_none() => command = Some(v.string().map_err(|e| e.to_string())?),
            Value(v) if input.is_none() => input = Some(v.string().map_err(|e| e.to_string())?),
            other => return Err(other.unexpected().to_string().into()),
        }
    }
    let command = command.ok_or_else(|| format!("missing command\n{}", usage()))?;
    if command == "help" {
        return Err(Failure::Help);
    }
    if !matches!(
        command.as_str(),
        "json" | "html" | "md" | "text" | "convert" | "list" | "export"
    ) {
        return Err(format!("unknown command {command:?}\n{}", usage()).into());
    }
    let (mut to, mut to_md) = (None, false);
    match (command.as_str(), to_name.as_deref()) {
        ("convert", None) => {
            return Err(format!("convert needs --to openai or --to anthropic\n{}", usage()).into());
        }
        ("convert", Some(name)) => {
            to =
                Some(Dialect::parse(name).ok_or_else(|| {
                    format!("--to: unknown form {name:?}; use openai or anthropic")
                })?);
        }
        ("export", Some("md" | "markdown")) => to_md = true,
        ("export", Some("html") | None) => {}
        ("export", Some(name)) => {
            return Err(format!("--to: unknown export {name:?}; use html or md").into());
        }
        (_, Some(_)) => {
            return Err(
                format!("--to is an option of convert and export only\n{}", usage()).into(),
            );
        }
        (_, None) => {}
    }
    if command == "export" && out.is_none() && conversation.is_none() {
        return Err(format!(
            "export needs --out DIR (or --conversation ID for one, printed)\n{}",
            usage()
        )
        .into());
    }
    // Options that only some commands take.
    let only = |given: bool, option: &str, commands: &[&str]| -> Result<(), Failure> {
        if !given || commands.contains(&command.as_str()) {
            return Ok(());
        }
        let (last, rest) = commands.split_last().unwrap_or((&"", &[]));
        let of = if rest.is_empty() {
            (*last).to_owned()
        } else {
            format!("{} and {last}", rest.join(", "))
        };
        Err(format!("{option} is an option of {of}\n{}", usage()).into())
    };
    only(
        conversation.is_some(),
        "--conversation",
        &["json", "html", "md", "export"],
    )?;
    only(redact, "--redact", &["html"])?;
    only(no_redact, "--no-redact", &["md", "export"])?;
    only(
        prices.is_some(),
        "--prices",
        &["html", "md", "json", "list", "export"],
    )?;
    only(follow, "--follow", &["html"])?;
    if port.is_some() && !follow {
        return Err(format!("--port is an option of html --follow\n{}", usage()).into());
    }
    if follow
        && (chunk.is_some() || redact || conversation.is_some() || input.as_deref() == Some("-"))
    {
        return Err(format!(
            "--follow reads a FILE (not -, --chunk, --redact or --conversation)\n{}",
            usage()
        )
        .into());
    }
    // With no PATH, `list`, `export --out DIR` and `--conversation ID` read the agents'
    // default places.
    let places = input.is_none()
        && (command == "list" || conversation.is_some() || command == "export" && out.is_some());
    let input = match input {
        None if places => String::new(),
        input => {
            input.ok_or_else(|| format!("missing FILE (or - for standard input)\n{}", usage()))?
        }
    };
    Ok(Args {
        command,
        format,
        chunk,
        locale,
        to,
        to_md,
        input,
        places,
        conversation,
        out,
        json,
        highlight,
        redact,
        no_redact,
        prices,
        follow,
        port: port.unwrap_or(0),
    })
}

/// The options of the renderers: the locale, and the price table of `--prices FILE`
/// (an error names the file).
fn render_options(args: &Args) -> Result<RenderOptions, String> {
    let prices = match &args.prices {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--prices: cannot read {path}: {e}"))?;
            let prices = docstream_core::price_table::from_json(&text)
                .map_err(|e| format!("--prices {path}: {e}"))?;
            Some(prices)
        }
    };
    Ok(RenderOptions {
        locale: args.locale,
        prices,
        ..RenderOptions::default()
    })
}

/// The conversation as JSON; with `--prices`, each response whose source states no cost
/// but whose model has a price gets `metadata.computedCostUsd` (the model holds only
/// stated costs).
fn conversation_json(
    conversation: &docstream_model::Conversation,
    options: &RenderOptions,
) -> Result<serde_json::Value, String> {
    let mut v = serde_json::to_value(conversation).map_err(|e| e.to_string())?;
    let Some(prices) = &options.prices else {
        return Ok(v);
    };
    let format = conversation.format.as_deref();
    if let Some(turns) = v.get_mut("turns").and_then(|t| t.as_array_mut()) {
        for (turn, json) in conversation.turns.iter().zip(turns) {
            let docstream_model::Turn::Assistant(r) = turn else {
                continue;
            };
            let cost = r.cost(Some(prices), format).filter(|c| c.computed);
            let meta = json
                .pointer_mut("/metadata")
                .and_then(|m| m.as_object_mut());
            if let (Some(cost), Some(meta)) = (cost, meta) {
                meta.insert("computedCostUsd".to_owned(), cost.usd.into());
            }
        }
    }
    Ok(v)
}

fn read_input(path: &str) -> Result<Vec<u8>, String> {
    if path == "-" {
        let mut bytes = Vec::new();
        io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok(bytes);
    }
    std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))
}

/// Claude Code 2.1+ keeps each sub-agent of `<session>.jsonl` in
/// `<session>/subagents/agent-<id>.jsonl`: when that folder is there, each file is given
/// to the stream, which shows it as the run of the call that started the agent. Files
/// that are not a sub-agent's (`agent-acompact-…`: Claude Code's own summaries) and
/// unreadable ones are left out.
fn add_subagent_files(path: &str, stream: &mut DocStream) {
    let Some(stem) = path.strip_suffix(".jsonl") else {
        return;
    };
    let Ok(dir) = std::fs::read_dir(std::path::Path::new(stem).join("subagents")) else {
        return;
    };
    let mut files: Vec<(String, std::path::PathBuf)> = dir
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let id = name.strip_prefix("agent-")?.strip_suffix(".jsonl")?;
            (!id.starts_with("acompact")).then(|| (id.to_owned(), e.path()))
        })
        .collect();
    files.sort();
    for (id, file) in files {
        if let Ok(bytes) = std::fs::read(&file) {
            stream.add_subagent(&id, bytes);
        }
    }
}

/// The input's name for messages.
fn display_name(path: &str) -> &str {
    if path == "-" { "standard input" } else { path }
}

/// Bytes read from the input at a time: the input is never held whole, so memory is
/// the conversation and its output.
const READ_SIZE: usize = 64 << 10;

/// Reads the input into the stream (in `chunk`-byte pushes when given), returning
/// the byte count and whether it looked binary (a NUL byte in its first 8 KiB).
fn read_into(
    path: &str,
    chunk: Option<usize>,
    stream: &mut DocStream,
    mut each: impl FnMut(&mut DocStream),
) -> Result<(u64, bool), String> {
    let name = display_name(path);
    let mut reader: Box<dyn Read> = if path == "-" {
        Box::new(io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?)
    };
    let mut buf = vec![0u8; READ_SIZE];
    let (mut total, mut binary) = (0u64, false);
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("cannot read {name}: {e}")),
        };
        if total < 8192 {
            let head = &buf[..n.min(8192 - total as usize)];
            binary |= head.contains(&0);
        }
        total += n as u64;
        for piece in buf[..n].chunks(chunk.unwrap_or(n)) {
            stream.push(piece).map_err(|e| e.to_string())?;
            each(stream);
        }
    }
    Ok((total, binary))
}

/// What docstream expects, for messages about input it cannot read.
fn expected() -> String {
    format!(
        "expected a transcript: Server-Sent Events, NDJSON lines or a JSON value in one of the formats {}",
        Format::NAMES.join(", ")
    )
}

/// One line on what was read with problems, or `None` when nothing went wrong.
fn summary(name: &str, c: &docstream_model::Conversation) -> Option<String> {
    let s = &c.stats;
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let counts = [
        (
            s.bad_events,
            "malformed or oversized event (an error document)",
            "malformed or oversized events (error documents)",
        ),
        (
            s.skipped_lines,
            "line skipped before the stream",
            "lines skipped before the stream",
        ),
        (
            s.invalid_utf8,
            "invalid UTF-8 sequence",
            "invalid UTF-8 sequences",
        ),
        (s.unknown_values, "unknown value", "unknown values"),
        (
            s.unknown_events,
            "event not understood",
            "events not understood",
        ),
    ];
    let mut parts: Vec<String> = counts
        .iter()
        .filter(|(n, ..)| *n > 0)
        .map(|&(n, one, many)| plural(n, one, many))
        .collect();
    let cut_off = c.documents().any(|d| {
        matches!(&d.meta, docstream_model::Meta::Error(e) if e.error_code == docstream_core::error::codes::CUT_OFF)
    });
    if cut_off {
        parts.push("the stream was cut off".to_owned());
    }
    if parts.is_empty() {
        return None;
    }
    Some(format!(
        "{name}: read {} ({}); {}",
        plural(s.events, "event", "events"),
        c.format.as_deref().unwrap_or("?"),
        parts.join(", ")
    ))
}

fn run() -> Result<(), Failure> {
    let args = parse_args()?;
    if args.command == "list" || args.command == "export" || args.conversation.is_some() {
        return store(&args);
    }
    if let Some(to) = args.to {
        let bytes = read_input(&args.input)?;
        return Ok(convert(&bytes, to, &args.input)?);
    }
    let name = display_name(&args.input);
    let options = render_options(&args)?;
    if args.follow {
        return Ok(follow::serve(follow::Follow {
            path: args.input.clone().into(),
            format: args.format,
            options,
            highlight: args.highlight,
            port: args.port,
        })?);
    }
    let mut stream = DocStream::new(Options {
        format: args.format,
        ..Options::default()
    });
    // With --chunk, the html page is built by applying the renderer's patches.
    let mut view = HtmlView::new(options.clone());
    let mut page_model = PageModel::new();
    // With --redact the page is rendered once from the masked final state (masking is a
    // function of the state, so the page is the same however the input was cut).
    let incremental = args.command == "html" && args.chunk.is_some() && !args.redact;
    let mut apply = |stream: &mut DocStream| {
        if incremental {
            let changes = stream.take_changes();
            for p in view.update(stream.conversation(), &changes) {
                page_model.apply(&p);
            }
        }
    };
    add_subagent_files(&args.input, &mut stream);
    let (total, binary) = read_into(&args.input, args.chunk, &mut stream, &mut apply)?;
    stream.finish().map_err(|e| e.to_string())?;
    apply(&mut stream);
    // The page model holds the page now: the view's caches go before the page is written.
    drop(view);
    if total == 0 {
        return Err(format!("{name} is empty; {}", expected()).into());
    }
    if stream.format().is_none() {
        let what = if binary {
            "looks like binary data"
        } else {
            "is not in a format docstream reads"
        };
        return Err(format!("{name} {what}; {}", expected()).into());
    }
    let mut masked = None;
    if args.redact {
        let mut copy = stream.conversation().clone();
        let report = docstream_redact::mask_conversation(&mut copy);
        masked = Some((copy, report));
    }
    let conversation = masked.as_ref().map_or(stream.conversation(), |(c, _)| c);
    let mut out = io::BufWriter::new(io::stdout().lock());
    let w = |e: io::Error| Failure::Failed(format!("cannot write the output: {e}"));
    match args.command.as_str() {
        "html" => {
            // The page is titled by what the conversation is about, never by a path.
            let title = page::conversation_title(conversation);
            let title = title.as_str();
            let header = match &masked {
                Some((_, report)) => {
                    let counts: Vec<_> = report.counts().collect();
                    page::page_header_masked(conversation, title, &options, &counts)
                }
                None => page::page_header(conversation, title, &options),
            };
            if incremental {
                // A turn at a time: the page model is the only whole copy of the page.
                let mut result = Ok(());
                write_page(&mut out, title, options.locale, |out| {
                    out.write_all(header.as_bytes())?;
                    page_model.write_html(|piece| {
                        if result.is_ok() {
                            result = out.write_all(page::dressed(piece, args.highlight).as_bytes());
                        }
                    });
                    result
                })
                .map_err(w)?;
            } else {
                let body = render_conversation(conversation, &options);
                write_page(&mut out, title, options.locale, |out| {
                    out.write_all(header.as_bytes())?;
                    out.write_all(page::dressed(&body, args.highlight).as_bytes())
                })
                .map_err(w)?;
            }
        }
        "md" => {
            let mut masker = Masker::new(&args);
            let masked = masker.conversation(conversation);
            let md = conversation_markdown_with(&masked, &options, &mut masker);
            out.write_all(for_terminal(&md, true).as_bytes())
                .map_err(w)?;
            masker.say(name);
        }
        "text" => {
            let text = progress::progress_lines(conversation, args.locale);
            out.write_all(for_terminal(&text, true).as_bytes())
                .map_err(w)?;
        }
        _ => {
            serde_json::to_writer_pretty(&mut out, &conversation_json(conversation, &options)?)
                .map_err(|e| Failure::Failed(e.to_string()))?;
            writeln!(out).map_err(w)?;
        }
    }
    out.flush().map_err(w)?;
    if let Some((_, report)) = &masked {
        say(&format!("{name}: {report}"));
    }
    if let Some(line) = summary(name, conversation) {
        say(&line);
    }
    Ok(())
}

/// Says what an export wrote: `wrote 3 conversation pages (1 entries could not be read;
/// listed with their errors) to out/index.html`.
fn say_written(what: &str, written: usize, errors: usize, index: &std::path::Path) {
    let unread = if errors > 0 {
        format!(" ({errors} entries could not be read; listed with their errors)")
    } else {
        String::new()
    };
    say(&format!(
        "wrote {written} conversation {what}{unread} to {}",
        index.display()
    ));
}

/// What every text of a run passes before it is written by `md` and `export`:
/// credential-shaped values masked (docstream-redact), unless `--no-redact`.
struct Masker {
    on: bool,
    report: docstream_redact::Report,
}

impl Masker {
    fn new(args: &Args) -> Masker {
        Masker {
            on: !args.no_redact,
            report: docstream_redact::Report::default(),
        }
    }

    /// The conversation with its secrets masked (every text, JSON values by their keys
    /// too), or as it is with `--no-redact`.
    fn conversation<'c>(
        &mut self,
        conversation: &'c docstream_model::Conversation,
    ) -> Cow<'c, docstream_model::Conversation> {
        if !self.on {
            return Cow::Borrowed(conversation);
        }
        let mut copy = conversation.clone();
        self.report
            .add(&docstream_redact::mask_conversation(&mut copy));
        Cow::Owned(copy)
    }

    /// Says on stderr what was masked in `what`.
    fn say(&self, what: &str) {
        if self.on {
            say(&format!("{what}: {}", self.report));
        }
    }
}

impl Redact for Masker {
    fn redact<'t>(&mut self, text: &'t str) -> Cow<'t, str> {
        if self.on {
            docstream_redact::Redactor::global().mask(text, &mut self.report)
        } else {
            Cow::Borrowed(text)
        }
    }
}

/// `export --to html`: the site's pages, listing and search data.
impl docstream_library::site::Mask for Masker {
    fn conversation(
        &mut self,
        conversation: &docstream_model::Conversation,
    ) -> Option<(docstream_model::Conversation, Vec<(&'static str, u64)>)> {
        if !self.on {
            return None;
        }
        let mut copy = conversation.clone();
        let report = docstream_redact::mask_conversation(&mut copy);
        self.report.add(&report);
        Some((copy, report.counts().collect()))
    }

    fn text(&mut self, text: &str) -> String {
        if self.on {
            docstream_redact::Redactor::global()
                .mask_title(text, &mut self.report)
                .into_owned()
        } else {
            text.to_owned()
        }
    }
}

/// Text for a terminal: no control character of the input reaches it, so no
/// transcript can set the window title or colours, make a link (OSC 8), write the
/// clipboard (OSC 52) or move the cursor. C0 characters (but tab and newline where
/// `lines`) show as their control pictures (ESC as `␛`), DEL as `␡`, C1 as `�`.
/// `--json` output is not passed through it: JSON stays exact.
fn for_terminal(text: &str, lines: bool) -> Cow<'_, str> {
    let bad = |c: char| c.is_control() && !(lines && (c == '\t' || c == '\n'));
    if !text.chars().any(bad) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match c {
                c if !bad(c) => c,
                '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
                '\u{7f}' => '\u{2421}',
                _ => '\u{fffd}',
            })
            .collect(),
    )
}

/// A message on stderr, fit for a terminal.
fn say(message: &str) {
    eprintln!("docstream: {}", for_terminal(message, true));
}

/// Writes the standalone page, as [`page::wrap_page`] makes it, around the body that
/// `body` writes, without a second copy of the body in memory.
fn write_page<W: Write>(
    out: &mut W,
    title: &str,
    locale: Locale,
    body: impl FnOnce(&mut W) -> io::Result<()>,
) -> io::Result<()> {
    let shell = page::wrap_page("", title, locale);
    let at = shell.rfind("</body>").unwrap_or(shell.len());
    out.write_all(&shell.as_bytes()[..at])?;
    body(out)?;
    out.write_all(&shell.as_bytes()[at..])
}

/// `list`, `export`, and `json|html --conversation`: glue over `docstream_library`.
/// What was left out is said on stderr; a store that could not be read is named
/// there and makes the exit status 1, after what could be read was written.
fn store(args: &Args) -> Result<(), Failure> {
    use docstream_library::store::Library;
    let options = render_options(args)?;
    let mut library = if args.places {
        let (found, failed) = places::open_all();
        match &args.conversation {
            Some(id) => places::with_conversation(found, id, failed)?,
            None if args.command == "export" => return places::export_each(args, found, failed),
            None => {
                let mut libraries: Vec<Library> = found.into_iter().map(|f| f.library).collect();
                return list(args, &mut libraries, failed);
            }
        }
    } else {
        Library::open(std::path::Path::new(&args.input)).map_err(|e| e.to_string())?
    };
    let mut out = io::stdout().lock();
    let w = |e: io::Error| Failure::Failed(e.to_string());
    match (args.command.as_str(), &args.conversation) {
        ("list", _) => list(args, std::slice::from_mut(&mut library), Vec::new()),
        ("export", None) => {
            let dir = std::path::Path::new(args.out.as_deref().unwrap_or("."));
            export(args, &mut library, dir, &args.input)
        }
        (command, Some(id)) => {
            let mut conversation = library.read(id).map_err(|e| {
                // Not found, perhaps because it is in a store that could not be read.
                let mut lines = vec![e.to_string()];
                lines.extend(library.unreadable().iter().cloned());
                Failure::Partial(lines)
            })?;
            if command == "md" || (command == "export" && args.to_md) {
                let mut masker = Masker::new(args);
                let masked = masker.conversation(&conversation);
                let md = conversation_markdown_with(&masked, &options, &mut masker);
                out.write_all(for_terminal(&md, true).as_bytes())
                    .map_err(w)?;
                masker.say(id);
                return Ok(());
            }
            if command == "html" || command == "export" {
                let title = library
                    .entries()
                    .iter()
                    .find(|e| &e.id == id)
                    .map(|e| e.title.clone())
                    .filter(|t| !t.is_empty())
                    .unwrap_or_else(|| page::conversation_title(&conversation));
                // `export` masks by default, `html` with --redact.
                let masked = if command == "export" {
                    !args.no_redact
                } else {
                    args.redact
                };
                let html = if masked {
                    // The store's title is the first prompt's words (perhaps cut inside
                    // a credential): masked too.
                    let mut report = docstream_redact::Report::default();
                    let title = docstream_redact::Redactor::global()
                        .mask_title(&title, &mut report)
                        .into_owned();
                    report.add(&docstream_redact::mask_conversation(&mut conversation));
                    let counts: Vec<_> = report.counts().collect();
                    let mut body =
                        page::page_header_masked(&conversation, &title, &options, &counts);
                    body.push_str(&render_conversation(&conversation, &options));
                    say(&format!("{id}: {report}"));
                    page::wrap_page(&body, &title, options.locale)
                } else {
                    page::render_page(&conversation, &title, &options)
                };
                return out
                    .write_all(page::dressed(&html, args.highlight).as_bytes())
                    .map_err(w);
            }
            serde_json::to_writer_pretty(&mut out, &conversation_json(&conversation, &options)?)
                .map_err(|e| e.to_string())?;
            writeln!(out).map_err(w)
        }
        _ => unreachable!("run() sends only list, export and --conversation here"),
    }
}

/// `export`: every conversation of `library` (opened from `name`) into `dir`, as a
/// site or, with `--to md`, Markdown files; exit status 1 when something could not be
/// read, after what could be was written.
fn export(
    args: &Args,
    library: &mut docstream_library::store::Library,
    dir: &std::path::Path,
    name: &str,
) -> Result<(), Failure> {
    let options = render_options(args)?;
    let title = format!("Conversations of {name}");
    if args.to_md {
        let mut masker = Masker::new(args);
        let done = export_md::export(library, dir, &title, &options, &mut masker)?;
        masker.say(name);
        say_written("files", done.files, done.errors, &dir.join("index.md"));
    } else {
        let mut masker = Masker::new(args);
        let done = library
            .export(dir, &title, options, &mut masker)
            .map_err(|e| e.to_string())?;
        masker.say(name);
        say_written("pages", done.pages, done.errors, &dir.join("index.html"));
    }
    for note in library.notes() {
        say(note);
    }
    match library.unreadable() {
        [] => Ok(()),
        failed => Err(Failure::Partial(failed.to_vec())),
    }
}

/// `list`: the entries of `libraries`, one after the other (with `--json`, one array);
/// their notes said on stderr; exit status 1 when something (of them, or `failed`)
/// could not be read, after what could be was written.
fn list(
    args: &Args,
    libraries: &mut [docstream_library::store::Library],
    mut failed: Vec<String>,
) -> Result<(), Failure> {
    let prices = render_options(args)?.prices;
    let mut out = io::stdout().lock();
    let w = |e: io::Error| Failure::Failed(e.to_string());
    // With --prices: each entry's totals priced, by library and id.
    let mut priced = std::collections::HashMap::new();
    for (i, library) in libraries.iter_mut().enumerate() {
        library.index(|entry, conversation, _| {
            if prices.is_some() {
                let t = conversation.totals_priced(prices.as_ref());
                priced.insert((i, entry.id.clone()), t);
            }
        });
        for note in library.notes() {
            say(note);
        }
        failed.extend(library.unreadable().iter().cloned());
    }
    let entries = libraries.iter().flat_map(|l| l.entries());
    if args.json {
        let mut list = Vec::new();
        for (i, library) in libraries.iter().enumerate() {
            for e in library.entries() {
                let mut v = serde_json::to_value(e).map_err(|e| e.to_string())?;
                // `costUsd` with the computed costs added, and how many responses were
                // computed or left out for want of a price.
                if let (Some(t), Some(o)) = (priced.get(&(i, e.id.clone())), v.as_object_mut()) {
                    o.insert("costUsd".to_owned(), t.cost_usd.into());
                    o.insert("costComputed".to_owned(), t.cost_computed.into());
                    o.insert("costMissing".to_owned(), t.cost_missing.into());
                }
                list.push(v);
            }
        }
        serde_json::to_writer_pretty(&mut out, &list).map_err(|e| e.to_string())?;
        writeln!(out).map_err(w)?;
    } else {
        // One line per conversation, its fields apart: no tab or newline inside one.
        let field = |s: &str| for_terminal(s, false).into_owned();
        for e in entries {
            let date = match (&e.created, e.no_times) {
                (Some(created), _) => created.as_str(),
                // Said, not left blank: the source records no times (Cursor's agent
                // transcripts).
                (None, true) => "no times recorded",
                (None, false) => "-",
            };
            let title = match &e.error {
                Some(err) => format!("{} — error: {err}", e.title),
                None => e.title.clone(),
            };
            writeln!(
                out,
                "{}\t{}\t{}\t{} messages\t{} tools\t{}",
                field(&e.id),
                field(date.get(..19).unwrap_or(date)),
                e.agent.label(),
                e.messages,
                e.tools,
                field(&title)
            )
            .map_err(w)?;
        }
    }
    out.flush().map_err(w)?;
    match failed {
        f if f.is_empty() => Ok(()),
        f => Err(Failure::Partial(f)),
    }
}

/// `docstream convert`: a message history from one form to the other, as JSON.
fn convert(bytes: &[u8], to: Dialect, name: &str) -> Result<(), String> {
    let name = if name == "-" { "standard input" } else { name };
    let input: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("{name} is not JSON: {e}"))?;
    let output = request::convert(&input, to).map_err(|e| format!("{name}: {e}"))?;
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &output).map_err(|e| e.to_string())?;
    writeln!(out).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let result = run();
    // Colouring that ran out of time, said once (docstream_html::syntax).
    if let Some(report) = docstream_html::syntax::report() {
        eprintln!("docstream: {report}");
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Help) => {
            println!("{}", usage());
            ExitCode::SUCCESS
        }
        Err(Failure::Version) => {
            println!("docstream {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Err(Failure::Usage(message)) => {
            say(&message);
            if !message.contains("usage:") {
                eprintln!("Try 'docstream --help'.");
            }
            ExitCode::from(2)
        }
        Err(Failure::Failed(message)) => {
            say(&message);
            ExitCode::FAILURE
        }
        Err(Failure::Partial(messages)) => {
            for m in messages {
                say(&m);
            }
            ExitCode::FAILURE
        }
    }
}
