//! `docstream list` with no path: each agent's default place
//! ([`docstream_library::places`]), said found or not on stderr, and opened.

use docstream_library::places::{self, Os};
use docstream_library::store::Library;

use crate::say;

/// Opens every default place that is a folder, saying for each agent where it looked
/// and whether it found it (`Codex: ~/.codex/sessions (not found)`). Returns the
/// libraries opened and the places that are there but could not be read.
pub(crate) fn open_all() -> (Vec<Library>, Vec<String>) {
    let os = Os::current();
    let env = |name: &str| std::env::var_os(name);
    let home = places::home(os, env).ok();
    let (mut libraries, mut failed) = (Vec::new(), Vec::new());
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
            Ok(library) => libraries.push(library),
            Err(e) => failed.push(e.to_string()),
        }
    }
    if libraries.is_empty() && failed.is_empty() {
        say("no conversations found in the default places (give a PATH to list another folder)");
    }
    (libraries, failed)
}
