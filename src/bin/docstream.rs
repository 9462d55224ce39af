//! `docstream`: render a transcript file from the shell.
//!
//! ```text
//! docstream json [--format F] [--chunk N] FILE|-
//! docstream html [--format F] [--chunk N] [--locale en|de] FILE|-
//! docstream text [--format F] [--chunk N] [--locale en|de] FILE|-
//! docstream convert --to openai|anthropic FILE|-
//! docstream list [--json] PATH
//! docstream json|html --conversation ID PATH
//! docstream export --out DIR PATH
//! ```
//!
//! `list`, `export` and `--conversation` read stores (Cursor's `state.vscdb`, Claude
//! Code's `projects/` folder, folders of transcripts) through [`docstream::library`].

use std::io::{self, Read, Write};
use std::process::ExitCode;

use docstream::convert::request::{self, Dialect};
use docstream::render::HtmlView;
use docstream::render::labels::Locale;
use docstream::render::patch::PageModel;
use docstream::render::{RenderOptions, page, progress};
use docstream::{DocStream, Format, Options};

const USAGE: &str =
    "usage: docstream json|html|text [--format FORMAT] [--chunk N] [--locale en|de] FILE|-
       docstream convert --to openai|anthropic FILE|-
       docstream list [--json] PATH
       docstream json|html --conversation ID PATH
       docstream export --out DIR PATH

  json        print the normalised conversation as JSON
  html        write a standalone HTML page
  text        print one progress line per agent action
  convert     convert a message history (an array, or an object with \"messages\")
              between the Anthropic and the OpenAI form; prints JSON
  --to        the form to convert to: openai or anthropic
  list        list the conversations of a store or folder: a Cursor state.vscdb,
              a Claude Code projects/ folder (or one project's), a folder of
              transcripts; id, date, counts, title (--json: every field as JSON)
  --conversation ID
              json/html: the conversation ID of the store PATH (ids from list)
  export      write a static site of every conversation of PATH to --out DIR:
              index.html with search, one page per conversation
  --locale    language of labels: en (default) or de
  --format    one of: auto (default), ";

struct Args {
    command: String,
    format: Option<Format>,
    chunk: Option<usize>,
    locale: Locale,
    to: Option<Dialect>,
    input: String,
    conversation: Option<String>,
    out: Option<String>,
    json: bool,
}

fn usage() -> String {
    format!(
        "{USAGE}{}\n  --chunk N   feed the input in N-byte chunks\n  FILE|-      a transcript, or - for standard input",
        Format::NAMES.join(", ")
    )
}

fn parse_args() -> Result<Args, String> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_env();
    let (mut command, mut format, mut chunk, mut input) = (None, None, None, None);
    let mut locale = Locale::En;
    let mut to = None;
    let (mut conversation, mut out, mut json) = (None, None, false);
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Long("format") => {
                let name = parser
                    .value()
                    .map_err(|e| e.to_string())?
                    .string()
                    .map_err(|e| e.to_string())?;
                format = Format::parse(&name).map_err(|e| e.to_string())?;
            }
            Long("chunk") => {
                let n: usize = parser
                    .value()
                    .map_err(|e| e.to_string())?
                    .parse()
                    .map_err(|e| format!("--chunk: {e}"))?;
                if n == 0 {
                    return Err("--chunk must be at least 1".to_owned());
                }
                chunk = Some(n);
            }
            Long("locale") => {
                let name = parser
                    .value()
                    .map_err(|e| e.to_string())?
                    .string()
                    .map_err(|e| e.to_string())?;
                locale =
                    Locale::parse(&name).ok_or_else(|| format!("--locale: unknown {name:?}"))?;
            }
            Long("to") => {
                let name = parser
                    .value()
                    .map_err(|e| e.to_string())?
                    .string()
                    .map_err(|e| e.to_string())?;
                to = Some(Dialect::parse(&name).ok_or_else(|| {
                    format!("--to: unknown form {name:?}; use openai or anthropic")
                })?);
            }
            Long("conversation") => {
                conversation = Some(
                    parser
                        .value()
                        .map_err(|e| e.to_string())?
                        .string()
                        .map_err(|e| e.to_string())?,
                );
            }
            Long("out") => {
                out = Some(
                    parser
                        .value()
                        .map_err(|e| e.to_string())?
                        .string()
                        .map_err(|e| e.to_string())?,
                );
            }
            Long("json") => json = true,
            Long("help") | Short('h') => return Err(usage()),
            Value(v) if command.is_none() => command = Some(v.string().map_err(|e| e.to_string())?),
            Value(v) if input.is_none() => input = Some(v.string().map_err(|e| e.to_string())?),
            other => return Err(other.unexpected().to_string()),
        }
    }
    let command = command.ok_or_else(usage)?;
    if !matches!(
        command.as_str(),
        "json" | "html" | "text" | "convert" | "list" | "export"
    ) {
        return Err(format!("unknown command {command:?}\n{}", usage()));
    }
    if command == "convert" && to.is_none() {
        return Err(format!(
            "convert needs --to openai or --to anthropic\n{}",
            usage()
        ));
    }
    if command != "convert" && to.is_some() {
        return Err(format!("--to is an option of convert only\n{}", usage()));
    }
    if command == "export" && out.is_none() {
        return Err(format!("export needs --out DIR\n{}", usage()));
    }
    if conversation.is_some() && !matches!(command.as_str(), "json" | "html") {
        return Err(format!(
            "--conversation is an option of json and html\n{}",
            usage()
        ));
    }
    let input =
        input.ok_or_else(|| format!("missing FILE (or - for standard input)\n{}", usage()))?;
    Ok(Args {
        command,
        format,
        chunk,
        locale,
        to,
        input,
        conversation,
        out,
        json,
    })
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

fn run() -> Result<(), String> {
    let args = parse_args()?;
    if args.command == "list" || args.command == "export" || args.conversation.is_some() {
        return store(&args);
    }
    let bytes = read_input(&args.input)?;
    if let Some(to) = args.to {
        return convert(&bytes, to, &args.input);
    }
    let mut stream = DocStream::new(Options {
        format: args.format,
        ..Options::default()
    });
    let options = RenderOptions {
        locale: args.locale,
        ..RenderOptions::default()
    };
    // With --chunk, the html page is built by applying the renderer's patches.
    let mut view = HtmlView::new(options.clone());
    let mut page_model = PageModel::new();
    let incremental = args.command == "html" && args.chunk.is_some();
    for chunk in bytes.chunks(args.chunk.unwrap_or(bytes.len().max(1))) {
        stream.push(chunk).map_err(|e| e.to_string())?;
        if incremental {
            let changes = stream.take_changes();
            for p in view.update(stream.conversation(), &changes) {
                page_model.apply(&p);
            }
        }
    }
    stream.finish().map_err(|e| e.to_string())?;
    if incremental {
        let changes = stream.take_changes();
        for p in view.update(stream.conversation(), &changes) {
            page_model.apply(&p);
        }
    }
    let mut out = io::stdout().lock();
    match args.command.as_str() {
        "html" => {
            let title = if args.input == "-" {
                "docstream"
            } else {
                &args.input
            };
            let html = if incremental {
                page::wrap_page(&page_model.html(), title, options.locale)
            } else {
                page::render_page(stream.conversation(), title, &options)
            };
            return out.write_all(html.as_bytes()).map_err(|e| e.to_string());
        }
        "text" => {
            let text = progress::progress_lines(stream.conversation(), args.locale);
            return out.write_all(text.as_bytes()).map_err(|e| e.to_string());
        }
        _ => {}
    }
    serde_json::to_writer_pretty(&mut out, stream.conversation()).map_err(|e| e.to_string())?;
    writeln!(out).map_err(|e| e.to_string())
}

/// `list`, `export`, and `json|html --conversation`: glue over `docstream::library`.
fn store(args: &Args) -> Result<(), String> {
    use docstream::library::store::Library;
    let path = std::path::Path::new(&args.input);
    let mut library = Library::open(path).map_err(|e| e.to_string())?;
    let options = RenderOptions {
        locale: args.locale,
        ..RenderOptions::default()
    };
    let mut out = io::stdout().lock();
    let w = |e: io::Error| e.to_string();
    match (args.command.as_str(), &args.conversation) {
        ("list", _) => {
            library.index(|_, _, _| {});
            if args.json {
                serde_json::to_writer_pretty(&mut out, library.entries())
                    .map_err(|e| e.to_string())?;
                return writeln!(out).map_err(w);
            }
            for e in library.entries() {
                let date = e.created.as_deref().unwrap_or("-");
                let title = match &e.error {
                    Some(err) => format!("{} — error: {err}", e.title),
                    None => e.title.clone(),
                };
                writeln!(
                    out,
                    "{}\t{}\t{}\t{} messages\t{} tools\t{}",
                    e.id,
                    date.get(..19).unwrap_or(date),
                    e.agent.label(),
                    e.messages,
                    e.tools,
                    title
                )
                .map_err(w)?;
            }
            Ok(())
        }
        ("export", _) => {
            let dir = std::path::Path::new(args.out.as_deref().unwrap_or("."));
            let title = format!("Conversations of {}", args.input);
            let done = library
                .export(dir, &title, options)
                .map_err(|e| e.to_string())?;
            eprintln!(
                "docstream: wrote {} conversation pages{} to {}",
                done.pages,
                if done.errors > 0 {
                    format!(
                        " ({} entries could not be read; listed with their errors)",
                        done.errors
                    )
                } else {
                    String::new()
                },
                dir.join("index.html").display()
            );
            Ok(())
        }
        (command, Some(id)) => {
            let conversation = library.read(id).map_err(|e| e.to_string())?;
            if command == "html" {
                let title = library
                    .entries()
                    .iter()
                    .find(|e| &e.id == id)
                    .map_or(id.as_str(), |e| e.title.as_str());
                let html = page::render_page(&conversation, title, &options);
                return out.write_all(html.as_bytes()).map_err(w);
            }
            serde_json::to_writer_pretty(&mut out, &conversation).map_err(|e| e.to_string())?;
            writeln!(out).map_err(w)
        }
        _ => unreachable!("run() sends only list, export and --conversation here"),
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
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("docstream: {message}");
            ExitCode::FAILURE
        }
    }
}
