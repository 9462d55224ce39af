//! A folder's list, sans-IO. The host finds the files and reads them — the CLI's
//! [`crate::store`] from disk with SQLite, the viewer's worker from the browser's files
//! with sqlite-wasm (through `docstream-library-wasm`) — and hands the catalog what it
//! read of each: a Cursor database's rows ([`CursorDb`]), a session file's [`Scan`], a
//! transcript's [`Conversation`], or why a file could not be read. The catalog makes
//! the entries: titles, projects, times, sub-agent links, error entries, unique ids and
//! the order.
//!
//! Whatever order the host hands files over in, the list is the same: each kind of file
//! is taken in the order of its path, folder by folder (as a sorted walk finds them):
//! databases (their errors, then their conversations), then session files, then other
//! transcripts; then [`order`] sorts them, newest first.

use std::collections::{HashMap, HashSet};

use docstream_core::Format;
use docstream_model::Conversation;

use crate::claude_code::{self, Part, Scan};
use crate::cursor::{CursorDb, WorkspaceComposer};
use crate::digest::{Digest, digest};
use crate::{Agent, Entry, FileKind, ParentLink, one_line};

/// Where an entry's bytes are; `H` is how the host names a file (a path, an index).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source<H> {
    /// A composer of a Cursor `cursorDiskKV` table: [`crate::cursor::Assembler`]
    /// reads its rows.
    Cursor {
        /// The database.
        db: H,
        /// The composer's id.
        composer: String,
    },
    /// (Part of) a Claude Code session file, read as `claude-code-transcript`.
    Claude {
        /// The file.
        file: H,
        /// Which bytes of it.
        part: Part,
    },
    /// A session of an OpenCode database: [`crate::opencode::Assembler`] reads its
    /// rows.
    OpenCode {
        /// The database.
        db: H,
        /// The session's id.
        session: String,
    },
    /// A transcript file in a format docstream detects.
    File {
        /// The file.
        file: H,
    },
    /// Nothing: the entry is an error.
    None,
}

/// The largest sub-agent file read into its session's page (64 MiB): a larger one is
/// left to its own entry.
pub const MAX_SUBAGENT_FILE: u64 = 64 << 20;

/// The files of a Claude Code session's sub-agents that have one (`agent-<id>.jsonl`,
/// the entries `<session>.agent-<id>` among `entry`'s children), with their agent ids:
/// read with the session (`DocStream::add_subagent`, [`crate::Reader::add_subagent`]),
/// each shows as the run of the call that started it, and counts into the session.
pub fn subagent_files<'a, H>(
    items: &'a [(Entry, Source<H>)],
    entry: &Entry,
) -> Vec<(String, &'a H)> {
    let prefix = format!("{}.agent-", entry.id);
    entry
        .children
        .iter()
        .filter_map(|child| {
            let agent = child.strip_prefix(&prefix)?;
            items.iter().find_map(|(e, source)| match source {
                Source::Claude {
                    file,
                    part: Part::Whole,
                } if &e.id == child => Some((agent.to_owned(), file)),
                _ => None,
            })
        })
        .collect()
}

/// An entry made of one file alone: an error, or a transcript.
struct Loose<H> {
    kind: FileKind,
    path: String,
    entry: Entry,
    source: Source<H>,
}

/// What a folder's files held, handed over file by file; [`Catalog::finish`] makes the
/// list.
pub struct Catalog<H> {
    single: bool,
    dbs: Vec<(String, H, CursorDb)>,
    opencode: Vec<(String, H, Vec<Entry>)>,
    sessions: Vec<(String, H, Scan)>,
    loose: Vec<Loose<H>>,
    notes: Vec<String>,
}

/// A folder's list: entries in order, each with where its bytes are.
#[derive(Debug, Clone)]
pub struct Listing<H> {
    /// The entries, in listing order, and their sources.
    pub items: Vec<(Entry, Source<H>)>,
    /// What was left out or read only in part, one sentence each naming the file.
    pub notes: Vec<String>,
    /// Files that could not be read, one message each (their entries are errors).
    pub unreadable: Vec<String>,
    /// Cursor composers without a bubble (chats opened and never sent), not listed.
    pub empty_skipped: usize,
}

/// Paths in the order a sorted walk of their folder finds them.
fn by_path(a: &str, b: &str) -> std::cmp::Ordering {
    a.split('/').cmp(b.split('/'))
}

impl<H: Clone> Catalog<H> {
    /// An empty catalog; `single`: the host was given one file, not a folder (a file
    /// that is not a transcript is still listed then).
    pub fn new(single: bool) -> Catalog<H> {
        Catalog {
            single,
            dbs: Vec::new(),
            opencode: Vec::new(),
            sessions: Vec::new(),
            loose: Vec::new(),
            notes: Vec::new(),
        }
    }

    fn unreadable(&mut self, kind: FileKind, path: String, agent: Agent, message: String) {
        self.loose.push(Loose {
            kind,
            entry: Entry::unreadable(path.clone(), agent, path.clone(), message),
            path,
            source: Source::None,
        });
    }

    /// A Cursor database at `path` (as the list shows it): what it held, or why it could
    /// not be read (a sentence naming the file).
    pub fn database(&mut self, path: String, file: H, db: Result<CursorDb, String>) {
        match db {
            Ok(db) => self.dbs.push((path, file, db)),
            Err(message) => self.unreadable(FileKind::Database, path, Agent::Cursor, message),
        }
    }

    /// An OpenCode database at `path` (as the list shows it): its sessions' entries
    /// ([`crate::opencode::SessionRow::entry`]), or why it could not be read.
    pub fn opencode(&mut self, path: String, file: H, sessions: Result<Vec<Entry>, String>) {
        match sessions {
            Ok(mut entries) => {
                crate::opencode::link_children(&mut entries);
                self.opencode.push((path, file, entries));
            }
            Err(message) => self.unreadable(FileKind::Database, path, Agent::OpenCode, message),
        }
    }

    /// A `*.jsonl` file: its scan, or why it could not be read. `true` when it is not a
    /// session file: then the host reads it as a transcript and hands it to
    /// [`Catalog::file`] (as [`FileKind::Lines`]).
    #[must_use]
    pub fn session_file(&mut self, path: String, file: H, scan: Result<Scan, String>) -> bool {
        match scan {
            Ok(s) if s.is_transcript => {
                self.sessions.push((path, file, s));
                false
            }
            Ok(_) => true,
            Err(message) => {
                self.unreadable(FileKind::Lines, path, Agent::File, message);
                false
            }
        }
    }

    /// A transcript file of `kind` read whole (any format, detected), or why it could
    /// not be read. Gives its digest when it is listed: in a folder, a file that is not
    /// a transcript (JSON of some other program) is not.
    pub fn file(
        &mut self,
        kind: FileKind,
        path: String,
        file: H,
        conversation: Result<&Conversation, String>,
    ) -> Option<Digest> {
        let conv = match conversation {
            Ok(c) => c,
            Err(message) => {
                self.unreadable(kind, path, Agent::File, message);
                return None;
            }
        };
        if conv.format.is_none() && !self.single {
            return None;
        }
        let format = conv.format.as_deref().and_then(|n| Format::parse(n).ok()?);
        let mut e = Entry::new(path.clone(), Agent::of_format(format), path.clone());
        let d = digest(conv);
        // The conversation's name (a saved chat's summary), else its first prompt.
        e.title = conv
            .title
            .as_deref()
            .or(d.first_prompt.as_deref())
            .map(|p| one_line(p, 100))
            .unwrap_or_else(|| path.clone());
        e.read_from(&d);
        if format == Some(Format::CursorAgentTranscript) {
            e.no_times = true;
            if e.project.is_none() {
                e.project = cursor_project(&path);
            }
            e.parent = cursor_parent(&path).map(|conversation| ParentLink {
                conversation,
                tool_call_id: None,
            });
        }
        self.loose.push(Loose {
            kind,
            path,
            entry: e,
            source: Source::File { file },
        });
        Some(d)
    }

    /// Something left out or read in part, said with the list.
    pub fn note(&mut self, note: String) {
        self.notes.push(note);
    }

    /// The list.
    pub fn finish(mut self) -> Listing<H> {
        self.dbs.sort_by(|a, b| by_path(&a.0, &b.0));
        self.sessions.sort_by(|a, b| by_path(&a.0, &b.0));
        self.loose.sort_by(|a, b| by_path(&a.path, &b.path));
        let mut loose: [Vec<Loose<H>>; 3] = Default::default();
        for l in self.loose {
            let at = match l.kind {
                FileKind::Database => 0,
                FileKind::Lines => 1,
                FileKind::Other => 2,
            };
            loose[at].push(l);
        }
        let [db_errors, lines, others] = loose;
        let mut out = Listing {
            items: Vec::new(),
            notes: self.notes,
            unreadable: Vec::new(),
            empty_skipped: 0,
        };
        let take = |out: &mut Listing<H>, list: Vec<Loose<H>>| {
            for l in list {
                if let (Source::None, Some(e)) = (&l.source, &l.entry.error) {
                    out.unreadable.push(e.clone());
                }
                out.items.push((l.entry, l.source));
            }
        };
        take(&mut out, db_errors);
        cursor_entries(self.dbs, &mut out);
        self.opencode.sort_by(|a, b| by_path(&a.0, &b.0));
        for (_, file, entries) in self.opencode {
            for e in entries {
                let session = e.id.clone();
                let db = file.clone();
                out.items.push((e, Source::OpenCode { db, session }));
            }
        }
        take(&mut out, lines);
        let (files, scans): (Vec<H>, Vec<(String, Scan)>) = self
            .sessions
            .into_iter()
            .map(|(path, file, scan)| (file, (path, scan)))
            .unzip();
        for item in claude_code::list(&scans) {
            let file = files[item.file].clone();
            out.items.push((
                item.entry,
                Source::Claude {
                    file,
                    part: item.part,
                },
            ));
        }
        take(&mut out, others);
        link_children(&mut out.items);
        out.items = order(out.items);
        out
    }
}

/// The conversations of Cursor's databases: a composer's name (else the name its
/// workspace gives it, else its first prompt), the workspace's folder, its times.
fn cursor_entries<H: Clone>(dbs: Vec<(String, H, CursorDb)>, out: &mut Listing<H>) {
    // composer id → (workspace folder, what the workspace says of it)
    let mut workspaces: HashMap<String, (Option<String>, WorkspaceComposer)> = HashMap::new();
    for (_, _, d) in &dbs {
        for w in &d.workspace {
            workspaces.insert(w.id.clone(), (d.folder.clone(), w.clone()));
        }
    }
    let mut listed = HashSet::new();
    for (path, file, d) in &dbs {
        out.notes.extend(d.notes.iter().cloned());
        for (id, comp) in &d.composers {
            let comp = match comp {
                Ok(c) => c,
                Err(message) => {
                    let e = Entry::unreadable(id.clone(), Agent::Cursor, path.clone(), message);
                    out.items.push((e, Source::None));
                    continue;
                }
            };
            if comp.is_empty() {
                out.empty_skipped += 1;
                continue;
            }
            listed.insert(id.clone());
            let mut e = Entry::new(id.clone(), Agent::Cursor, path.clone());
            let ws = workspaces.get(id);
            let mut c = comp.clone();
            if c.name.is_none() {
                c.name = ws.and_then(|(_, w)| w.name.clone());
            }
            if c.first_prompt.is_none() {
                c.first_prompt = d.prompts.get(id).cloned();
            }
            e.title = c.title();
            e.project = ws.and_then(|(f, _)| f.clone());
            e.created = c
                .created
                .or_else(|| ws.and_then(|(_, w)| w.created.clone()));
            e.updated = c
                .updated
                .or_else(|| ws.and_then(|(_, w)| w.updated.clone()));
            e.messages = c.messages;
            out.items.push((
                e,
                Source::Cursor {
                    db: file.clone(),
                    composer: id.clone(),
                },
            ));
        }
    }
    // Composers a workspace names whose conversation is in no database given.
    if dbs.iter().all(|(_, _, d)| d.composers.is_empty()) {
        let mut missing: Vec<_> = workspaces
            .iter()
            .filter(|(id, _)| !listed.contains(*id))
            .collect();
        missing.sort_by(|a, b| a.0.cmp(b.0));
        for (id, (folder, w)) in missing {
            let mut e = Entry::new(id.clone(), Agent::Cursor, String::new());
            e.title = w
                .name
                .clone()
                .unwrap_or_else(|| format!("Conversation {id}"));
            e.project.clone_from(folder);
            e.created.clone_from(&w.created);
            e.error = Some(
                "Its messages are in Cursor's globalStorage/state.vscdb, which was not given; open the folder holding both globalStorage and workspaceStorage.".to_owned(),
            );
            out.items.push((e, Source::None));
        }
    }
}

/// Ids made unique (a second `s1` is `s1~2`); newest first (by `created`, else
/// `updated`); a sub-agent right after the conversation that started it.
pub fn order<S>(mut items: Vec<(Entry, S)>) -> Vec<(Entry, S)> {
    let mut seen = HashSet::new();
    for (e, _) in &mut items {
        let mut id = e.id.clone();
        let mut n = 2;
        while !seen.insert(id.clone()) {
            id = format!("{}~{n}", e.id);
            n += 1;
        }
        e.id = id;
    }
    let key = |e: &Entry| e.created.clone().or(e.updated.clone()).unwrap_or_default();
    items.sort_by_key(|b| std::cmp::Reverse(key(&b.0)));
    let (children, top): (Vec<_>, Vec<_>) =
        items.into_iter().partition(|(e, _)| e.parent.is_some());
    let mut children: Vec<Option<(Entry, S)>> = children.into_iter().map(Some).collect();
    let mut out = Vec::new();
    for item in top {
        let id = item.0.id.clone();
        out.push(item);
        for c in children.iter_mut() {
            if c.as_ref()
                .is_some_and(|(e, _)| e.parent.as_ref().is_some_and(|p| p.conversation == id))
            {
                out.extend(c.take());
            }
        }
    }
    // Sub-agents whose conversation is not listed.
    out.extend(children.into_iter().flatten());
    out
}

/// Each entry that names a parent listed here among that parent's children (Claude
/// Code's are there already).
fn link_children<S>(items: &mut [(Entry, S)]) {
    let at: HashMap<&str, usize> = items
        .iter()
        .enumerate()
        .map(|(i, (e, _))| (e.id.as_str(), i))
        .collect();
    let links: Vec<(usize, String)> = items
        .iter()
        .filter_map(|(e, _)| {
            let parent = *at.get(e.parent.as_ref()?.conversation.as_str())?;
            let known = items[parent].0.children.contains(&e.id);
            (!known).then(|| (parent, e.id.clone()))
        })
        .collect();
    for (parent, child) in links {
        items[parent].0.children.push(child);
    }
}

/// The session transcript a Cursor sub-agent's transcript at `path` belongs to:
/// `…/agent-transcripts/<id>/subagents/<agent>.jsonl` → `…/agent-transcripts/<id>/<id>.jsonl`.
fn cursor_parent(path: &str) -> Option<String> {
    let dir = &path[..path.rfind(['/', '\\'])?];
    let sub = dir.rfind(['/', '\\'])?;
    if &dir[sub + 1..] != "subagents" {
        return None;
    }
    let session = &dir[..sub];
    let id_at = session.rfind(['/', '\\'])? + 1;
    let id = &session[id_at..];
    let above = &session[..id_at - 1];
    let folder = above.rsplit(['/', '\\']).next()?;
    if folder != "agent-transcripts" || id.is_empty() {
        return None;
    }
    let sep = &dir[sub..=sub];
    Some(format!("{session}{sep}{id}.jsonl"))
}

/// The project of a Cursor agent transcript at `path` (`/`- or `\`-separated, as
/// listed): the folder Cursor named after the workspace, above `agent-transcripts`
/// (`home-dev-shop` for `/home/dev/shop`; the name is Cursor's, kept as it is: the
/// dashes it put for `/` cannot be told from the workspace's own).
fn cursor_project(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split(['/', '\\']).collect();
    let at = parts.iter().rposition(|p| *p == "agent-transcripts")?;
    let project = parts.get(at.checked_sub(1)?)?;
    (!project.is_empty() && *project != "." && *project != "..").then(|| (*project).to_owned())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_cursor_transcripts_project_is_the_folder_cursor_named() {
        let p = "home-dev-shop/agent-transcripts/ab/ab.jsonl";
        assert_eq!(super::cursor_project(p).as_deref(), Some("home-dev-shop"));
        let sub = "projects\\x-y\\agent-transcripts\\ab\\subagents\\cd.jsonl";
        assert_eq!(super::cursor_project(sub).as_deref(), Some("x-y"));
        assert_eq!(super::cursor_project("agent-transcripts/ab/ab.jsonl"), None);
        assert_eq!(super::cursor_project("ab/ab.jsonl"), None);
    }

    #[test]
    fn a_cursor_sub_agents_transcript_belongs_to_its_session() {
        let parent = super::cursor_parent;
        assert_eq!(
            parent("p/agent-transcripts/ab/subagents/cd.jsonl").as_deref(),
            Some("p/agent-transcripts/ab/ab.jsonl")
        );
        assert_eq!(
            parent("agent-transcripts\\ab\\subagents\\cd.jsonl").as_deref(),
            Some("agent-transcripts\\ab\\ab.jsonl")
        );
        assert_eq!(parent("p/agent-transcripts/ab/ab.jsonl"), None);
        assert_eq!(parent("p/other/ab/subagents/cd.jsonl"), None);
        assert_eq!(parent("ab/subagents/cd.jsonl"), None);
        assert_eq!(parent("subagents/cd.jsonl"), None);
        assert_eq!(parent("cd.jsonl"), None);
    }

    use super::*;

    #[test]
    fn the_order_files_come_in_does_not_change_the_list() {
        let session = |id: &str, t: &str| {
            format!(
                "{{\"type\":\"user\",\"sessionId\":\"{id}\",\"uuid\":\"u-{id}\",\"timestamp\":\"{t}\",\"message\":{{\"role\":\"user\",\"content\":\"hi {id}\"}}}}\n"
            )
        };
        let files = [
            ("p/a.jsonl", session("s1", "2025-01-01T00:00:00Z")),
            ("p/a/x.jsonl", session("s1", "2025-01-01T00:00:00Z")),
            ("p-b.jsonl", session("s2", "2025-01-01T00:00:00Z")),
        ];
        let list = |order: &[usize]| {
            let mut c = Catalog::new(false);
            for &i in order {
                let (p, text) = &files[i];
                let scan = claude_code::scan(text.as_bytes());
                assert!(!c.session_file((*p).to_owned(), i, Ok(scan)));
            }
            c.database("db/bad.vscdb".into(), 9, Err("cannot read it".into()));
            c.finish()
                .items
                .into_iter()
                .map(|(e, _)| (e.id, e.source))
                .collect::<Vec<_>>()
        };
        let want = list(&[0, 1, 2]);
        // As the CLI's walk finds them: names sorted in each folder, a folder entered
        // where its name falls (`a` before `a.jsonl`, `p` before `p-b.jsonl`).
        assert_eq!(
            want,
            [
                ("s1".to_owned(), "p/a/x.jsonl".to_owned()),
                ("s1~2".into(), "p/a.jsonl".into()),
                ("s2".into(), "p-b.jsonl".into()),
                ("db/bad.vscdb".into(), "db/bad.vscdb".into()),
            ]
        );
        for o in [[2, 1, 0], [1, 2, 0], [2, 0, 1]] {
            assert_eq!(list(&o), want, "files handed over as {o:?}");
        }
    }
}
