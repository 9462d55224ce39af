//! `docstream html --follow FILE`: a transcript still being written, served as a page on
//! 127.0.0.1 that streams as the agent works.
//!
//! One thread owns the stream: it polls the file and pushes only the bytes appended since
//! the last look into one [`DocStream`]; each open page has its own [`HtmlView`] there,
//! which turns the stream's
//! changes into patches, sent as Server-Sent Events (`/events`) and applied by the
//! package's own patch applier (`apply.js`, served beside the page's small script). A
//! page that connects late, or again, catches up from the state as it stands
//! ([`HtmlView::catch_up`]). A file truncated or replaced (rotated) is read afresh, and
//! each page starts again with a note saying so.
//!
//! Only this machine is served: the server listens on 127.0.0.1 and answers only
//! requests addressed to it by that name (a page elsewhere that rebinds its own host
//! name to 127.0.0.1 gets 403, not the transcript).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use docstream_core::{DocStream, Format, Options};
use docstream_html::labels::Locale;
use docstream_html::patch::Patch;
use docstream_html::{CONVERSATION_CLOSE, CONVERSATION_OPEN, HtmlView, RenderOptions, page};
use tiny_http::{Header, Request, Response, Server};

/// How often the file is looked at.
const POLL: Duration = Duration::from_millis(150);
/// The most bytes read into the stream between two sends: a large file already written
/// reaches the pages in steps, not in one message of its whole size.
const MOST_PER_READ: u64 = 1 << 20;
/// A page that hears nothing for this long gets a comment, so a closed connection is
/// noticed and its view let go.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The scripts the page runs: its own, the copy controls of `docstream html`'s pages,
/// and the package's patch applier with the two modules it imports (the same files the
/// npm package ships).
const SCRIPTS: &[(&str, &str)] = &[
    ("/follow.js", include_str!("follow.js")),
    ("/copy.js", page::PAGE_SCRIPT),
    ("/apply.js", include_str!("../../../pkg-template/apply.js")),
    ("/wire.js", include_str!("../../../pkg-template/wire.js")),
    (
        "/keep-state.js",
        include_str!("../../../pkg-template/keep-state.js"),
    ),
];

/// What `--follow` needs of the command line.
pub struct Follow {
    /// The file followed.
    pub path: PathBuf,
    /// The input's format, when named.
    pub format: Option<Format>,
    /// The renderer's options (locale, prices).
    pub options: RenderOptions,
    /// Colour the code (and draw formulas) of what arrives whole.
    pub highlight: bool,
    /// The port on 127.0.0.1 (0: one the system picks).
    pub port: u16,
}

/// Serves the followed file until the process is stopped. Says the page's address on
/// stderr once the server listens.
pub fn serve(follow: Follow) -> Result<(), String> {
    let name = follow.path.display().to_string();
    File::open(&follow.path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let server = Server::http(("127.0.0.1", follow.port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", follow.port))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .ok_or("the server has no port")?;
    let shell = shell(&name, follow.options.locale);
    let (joins, joined) = mpsc::channel();
    thread::spawn(move || watch(&follow, &joined));
    crate::say(&format!(
        "following {name} at http://127.0.0.1:{port}/ (Ctrl-C stops)"
    ));
    for request in server.incoming_requests() {
        answer(request, port, &shell, &joins);
    }
    Ok(())
}

/// The page: a header naming the file with a live status line, and the empty
/// conversation the patches build.
fn shell(name: &str, locale: Locale) -> String {
    let mut body = String::with_capacity(512);
    body.push_str("<header class=\"ds-page-header\">\n<h1 class=\"ds-page-title\">");
    body.push_str(&docstream_html::escape::escape(name));
    body.push_str(
        "</h1>\n<p class=\"ds-follow-status\" role=\"status\">Connecting…</p>\n</header>\n",
    );
    body.push_str(CONVERSATION_OPEN);
    body.push_str(CONVERSATION_CLOSE);
    page::wrap_served_page(&body, name, locale, "/follow.js")
}

/// Answers one request: the page, its scripts, or the stream of events.
fn answer(request: Request, port: u16, shell: &str, joins: &Sender<Sender<String>>) {
    let host = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Host"))
        .map(|h| h.value.as_str().to_owned());
    if !host.as_deref().is_some_and(|h| is_local(h, port)) {
        let _ = request.respond(text(403, "docstream serves only http://127.0.0.1 pages\n"));
        return;
    }
    if *request.method() != tiny_http::Method::Get {
        let _ = request.respond(text(405, "only GET\n"));
        return;
    }
    let path = request
        .url()
        .split('?')
        .next()
        .unwrap_or_default()
        .to_owned();
    let response = match path.as_str() {
        "/" => Response::from_string(shell)
            .with_header(header("Content-Type", "text/html; charset=utf-8")),
        "/events" => {
            let (page, events) = mpsc::channel();
            if joins.send(page).is_ok() {
                thread::spawn(move || send_events(request, &events));
            }
            return;
        }
        _ => match SCRIPTS.iter().find(|(p, _)| *p == path) {
            Some((_, js)) => Response::from_string(*js)
                .with_header(header("Content-Type", "text/javascript; charset=utf-8")),
            None => text(404, "not found\n"),
        },
    };
    let _ = request.respond(
        response
            .with_header(header("Cache-Control", "no-store"))
            .with_header(header("X-Content-Type-Options", "nosniff"))
            .with_header(header("Referrer-Policy", "no-referrer")),
    );
}

/// True for a `Host` naming this server by a loopback name.
fn is_local(host: &str, port: u16) -> bool {
    ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .any(|name| host.eq_ignore_ascii_case(&format!("{name}:{port}")))
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn text(status: u16, body: &str) -> Response<io::Cursor<Vec<u8>>> {
    Response::from_string(body)
        .with_status_code(status)
        .with_header(header("Content-Type", "text/plain; charset=utf-8"))
}

/// Writes a page's events as they come, each flushed at once (an HTTP chunk encoder
/// would hold small ones back), until the page goes away.
fn send_events(request: Request, events: &Receiver<String>) {
    let mut out = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n\
                Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
                Connection: close\r\n\r\n";
    if out
        .write_all(head.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        return;
    }
    loop {
        let message = match events.recv_timeout(KEEP_ALIVE) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => ": still following\n\n".to_owned(),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if out
            .write_all(message.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            return;
        }
    }
}

/// One Server-Sent Event: each line of `data` a `data:` field.
fn event(name: &str, data: &str) -> String {
    let mut out = String::with_capacity(data.len() + name.len() + 16);
    out.push_str("event: ");
    out.push_str(name);
    out.push('\n');
    for line in data.split('\n') {
        out.push_str("data: ");
        out.push_str(line);
        out.push('\n');
    }
    out.push('\n');
    out
}

/// The stream of the followed file and the pages that show it.
struct Hub {
    stream: DocStream,
    format: Option<Format>,
    options: RenderOptions,
    highlight: bool,
    pages: Vec<PageFeed>,
    /// What the status line says (the file's state), for pages that join later.
    status: String,
}

/// An open page: its view of the stream, and where its events go.
struct PageFeed {
    view: HtmlView,
    events: Sender<String>,
}

impl Hub {
    fn new(follow: &Follow) -> Hub {
        Hub {
            stream: new_stream(follow.format, &follow.path),
            format: follow.format,
            options: follow.options.clone(),
            highlight: follow.highlight,
            pages: Vec::new(),
            status: "Following".to_owned(),
        }
    }

    /// A new page: it starts empty and catches up with the stream as it stands.
    fn join(&mut self, events: Sender<String>) {
        let mut view = HtmlView::new(self.options.clone());
        let patches = view.catch_up(self.stream.conversation(), &self.stream.open_documents());
        let _ = events.send(event("reset", &self.status));
        if !patches.is_empty() {
            let _ = events.send(event("patches", &self.dressed(patches)));
        }
        self.pages.push(PageFeed { view, events });
    }

    /// Bytes appended to the file: each page gets the patches of what they changed.
    fn push(&mut self, bytes: &[u8]) {
        // Cannot fail before finish.
        let _ = self.stream.push(bytes);
        let changes = self.stream.take_changes();
        if changes.is_empty() {
            return;
        }
        let mut pages = std::mem::take(&mut self.pages);
        pages.retain_mut(|page| {
            let patches = page.view.update(self.stream.conversation(), &changes);
            patches.is_empty()
                || page
                    .events
                    .send(event("patches", &self.dressed(patches)))
                    .is_ok()
        });
        self.pages = pages;
    }

    /// The file is read afresh (truncated or replaced): every page starts again, the
    /// status saying why.
    fn restart(&mut self, path: &Path, status: String) {
        self.stream = new_stream(self.format, path);
        self.status = status;
        let reset = event("reset", &self.status);
        let options = self.options.clone();
        self.pages.retain_mut(|page| {
            page.view = HtmlView::new(options.clone());
            page.events.send(reset.clone()).is_ok()
        });
    }

    /// A new status line for every page.
    fn say(&mut self, status: String) {
        if status == self.status {
            return;
        }
        self.status = status;
        let note = event("status", &self.status);
        self.pages
            .retain(|page| page.events.send(note.clone()).is_ok());
    }

    /// Patches as JSON, their whole elements dressed as the CLI's pages are (code
    /// coloured, formulas drawn); appended pieces stay as rendered.
    fn dressed(&self, mut patches: Vec<Patch>) -> String {
        for patch in &mut patches {
            let html = match patch {
                Patch::InsertTurn { html, .. }
                | Patch::ReplaceTurnHeader { html, .. }
                | Patch::InsertDocument { html, .. }
                | Patch::ReplaceDocument { html, .. }
                | Patch::ReplacePart { html, .. } => html,
                _ => continue,
            };
            if let std::borrow::Cow::Owned(d) = page::dressed(html, self.highlight) {
                *html = d;
            }
        }
        serde_json::to_string(&patches).unwrap_or_else(|_| "[]".to_owned())
    }
}

/// A stream for the file, given the sub-agent files Claude Code keeps beside a session
/// as they are now.
fn new_stream(format: Option<Format>, path: &Path) -> DocStream {
    let mut stream = DocStream::new(Options {
        format,
        ..Options::default()
    });
    if let Some(path) = path.to_str() {
        crate::add_subagent_files(path, &mut stream);
    }
    stream
}

/// Which file a path names now: a rotated log is a new file under the old name.
#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// Follows the file for ever: reads what was appended since the last look, starts
/// afresh when the file shrank or was replaced, and lets pages join (`joined`: where
/// each new page's events go) between looks.
fn watch(follow: &Follow, joined: &Receiver<Sender<String>>) {
    let path = follow.path.as_path();
    let name = path.display().to_string();
    let mut hub = Hub::new(follow);
    let (mut offset, mut id) = (0u64, None);
    let mut buf = Vec::new();
    let mut wait = Duration::ZERO;
    loop {
        // Between looks, pages join at once.
        match joined.recv_timeout(wait) {
            Ok(page) => {
                hub.join(page);
                continue;
            }
            Err(RecvTimeoutError::Timeout) => {}
            // The server is gone.
            Err(RecvTimeoutError::Disconnected) => return,
        }
        wait = POLL;
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(e) => {
                hub.say(format!("Waiting: cannot read {name} ({e})"));
                continue;
            }
        };
        let now = identity(&meta);
        if offset > 0 && (now != id || meta.len() < offset) {
            let why = if now == id {
                "was truncated"
            } else {
                "was replaced"
            };
            hub.restart(path, format!("Following; {name} {why} and was read afresh"));
            offset = 0;
        }
        id = now;
        if meta.len() > offset {
            match read_from(
                path,
                offset,
                meta.len().min(offset + MOST_PER_READ),
                &mut buf,
            ) {
                Ok(()) => {
                    offset += buf.len() as u64;
                    hub.push(&buf);
                    if hub.status.starts_with("Waiting") {
                        hub.say("Following".to_owned());
                    }
                }
                Err(e) => hub.say(format!("Waiting: cannot read {name} ({e})")),
            }
            if !buf.is_empty() && offset < meta.len() {
                // More is there already: no wait before reading it.
                wait = Duration::ZERO;
            }
        }
    }
}

/// The bytes of `path` from `from` to `to` (fewer when the file shrank meanwhile).
fn read_from(path: &Path, from: u64, to: u64, buf: &mut Vec<u8>) -> io::Result<()> {
    buf.clear();
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(from))?;
    file.take(to - from).read_to_end(buf)?;
    Ok(())
}
