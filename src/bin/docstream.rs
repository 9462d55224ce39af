//! `docstream`: render a transcript file from the shell.
//!
//! ```text
//! docstream json [--format F] [--chunk N] FILE|-
//! ```

use std::io::{self, Read, Write};
use std::process::ExitCode;

use docstream::{DocStream, Format, Options};

const USAGE: &str = "usage: docstream json [--format FORMAT] [--chunk N] FILE|-

  json        print the normalised conversation as JSON
  --format    one of: auto (default), ";

struct Args {
    command: String,
    format: Option<Format>,
    chunk: Option<usize>,
    input: String,
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
            Long("help") | Short('h') => return Err(usage()),
            Value(v) if command.is_none() => command = Some(v.string().map_err(|e| e.to_string())?),
            Value(v) if input.is_none() => input = Some(v.string().map_err(|e| e.to_string())?),
            other => return Err(other.unexpected().to_string()),
        }
    }
    let command = command.ok_or_else(usage)?;
    if command != "json" {
        return Err(format!("unknown command {command:?}\n{}", usage()));
    }
    let input =
        input.ok_or_else(|| format!("missing FILE (or - for standard input)\n{}", usage()))?;
    Ok(Args {
        command,
        format,
        chunk,
        input,
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
    let bytes = read_input(&args.input)?;
    let mut stream = DocStream::new(Options {
        format: args.format,
        ..Options::default()
    });
    for chunk in bytes.chunks(args.chunk.unwrap_or(bytes.len().max(1))) {
        stream.push(chunk).map_err(|e| e.to_string())?;
    }
    stream.finish().map_err(|e| e.to_string())?;
    debug_assert_eq!(args.command, "json");
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, stream.conversation()).map_err(|e| e.to_string())?;
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
