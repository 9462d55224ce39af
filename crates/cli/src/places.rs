//! `docstream list` and `export --out DIR` with no path: each agent's default place
//! ([`docstream_library::places`]), said found or not on stderr, and opened.

use docstream_library::Agent;
use docstream_library::places::{self, Os};
use docstream_library::store::Library;

use crate::{Args, Failure, export, say};

/// A default place that is there, opened.
pub(crate) struct Found {
    pub(crate) agent: Agent,
    /// Its path as shown (`~/.codex/sessions`).
    pub(crate) shown: String,
    pub(crate) library: Library,
}

/// Opens every default place that is a folder, saying for each agent where it looked
/// and whether it found it (`Codex: ~/.codex/sessions (not found)`). Returns the
/// places opened and the messages of those that are there but could not be read.
pub(crate) fn open_all() -> (Vec<Found>, Vec<String>) {
    let os = Os::current();
    let env = |name: &str| std::env::var_os(name);
    let home = places::home(os, env).ok();
    let (mut found, mut failed) = (Vec::new(), Vec::new());
    for place in places::default_places(os, env) {
        let label = place.agent.label();
        let path = match place.path {
            Ok(path) => path,
            Err(why) => {
                say(&format!("{label}: not looked for ({why})"));
                continue;
            }
        };
        let shown = places::shown(&path, home.as_deref());
        if !std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
            say(&format!("{label}: {shown} (not found)"));
            continue;
        }
        say(&format!("{label}: {shown} (found)"));
        // The walk starts at the place itself: a hidden folder is searched when given.
        match Library::open(&path) {
            Ok(library) => found.push(Found {
                agent: place.agent,
                shown,
                library,
            }),
            Err(e) => failed.push(e.to_string()),
        }
    }
    if found.is_empty() && failed.is_empty() {
        say("no conversations found in the default places (give a PATH to list another folder)");
    }
    (found, failed)
}

/// `export --out DIR` with no path: each place found to `DIR/<agent>/` (`cursor`,
/// `claude-code`, …, and `cursor-projects` for Cursor's agent transcripts: ids are
/// unique within a place, not across places), one after the other; exit status 1
/// when something could not be read.
pub(crate) fn export_each(
    args: &Args,
    found: Vec<Found>,
    mut failed: Vec<String>,
) -> Result<(), Failure> {
    let out = std::path::Path::new(args.out.as_deref().unwrap_or("."));
    let mut used = Vec::new();
    for mut place in found {
        // An agent with two places (Cursor's app data and its agent transcripts): the
        // second goes to `<agent>-<its folder>` (`cursor-projects`).
        let mut name = slug(place.agent);
        if used.contains(&name) {
            let folder = place.shown.rsplit(['/', '\\']).next().unwrap_or_default();
            name = format!("{name}-{folder}");
        }
        used.push(name.clone());
        let dir = out.join(&name);
        match export(args, &mut place.library, &dir, &place.shown) {
            Ok(()) => {}
            Err(Failure::Partial(messages)) => failed.extend(messages),
            Err(other) => return Err(other),
        }
    }
    match failed {
        f if f.is_empty() => Ok(()),
        f => Err(Failure::Partial(f)),
    }
}

/// The agent's name in `--json` lists and folder names: `claude-code`.
fn slug(agent: Agent) -> String {
    match serde_json::to_value(agent) {
        Ok(serde_json::Value::String(s)) => s,
        _ => agent.label().to_lowercase().replace(' ', "-"),
    }
}

/// `--conversation ID` with no path: the first place found that lists `id`, else an
/// error naming the id (and what could not be read, where it may be).
pub(crate) fn with_conversation(
    found: Vec<Found>,
    id: &str,
    failed: Vec<String>,
) -> Result<Library, Failure> {
    found
        .into_iter()
        .map(|f| f.library)
        .find(|l| l.entries().iter().any(|e| e.id == id))
        .ok_or_else(|| {
            let mut lines = vec![format!("no conversation {id:?} in the default places")];
            lines.extend(failed);
            Failure::Partial(lines)
        })
}
