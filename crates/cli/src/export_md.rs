//! `docstream export --to md --out DIR PATH`: every conversation of a store or folder
//! as a Markdown file `c/<id>.md`, and `index.md` listing them (title linked, agent,
//! date, counts; entries that could not be read with their error). One conversation is
//! in memory at a time.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

use docstream_html::RenderOptions;
use docstream_html::markdown_export::{conversation_markdown_with, inline_text};
use docstream_library::store::Library;

/// What was written: conversation files, and entries listed with an error.
pub(crate) struct Written {
    pub(crate) files: usize,
    pub(crate) errors: usize,
}

/// Writes the Markdown of every conversation of `library` into `dir`.
pub(crate) fn export(
    library: &mut Library,
    dir: &Path,
    title: &str,
    options: &RenderOptions,
    redact: &mut crate::Masker,
) -> Result<Written, String> {
    let conversations = dir.join("c");
    fs::create_dir_all(&conversations)
        .map_err(|e| format!("cannot create {}: {e}", conversations.display()))?;
    let mut taken = HashSet::new();
    let mut rows = Vec::new();
    let mut failed = None;
    let mut files = 0;
    library.index(|entry, conversation, _| {
        if failed.is_some() {
            return;
        }
        let name = docstream_library::site::file_name(&entry.id, &mut taken);
        let path = conversations.join(format!("{name}.md"));
        let masked = redact.conversation(conversation);
        let md = conversation_markdown_with(&masked, options, redact);
        match fs::write(&path, md) {
            Ok(()) => {
                files += 1;
                rows.push((entry.id.clone(), name));
            }
            Err(e) => failed = Some(format!("cannot write {}: {e}", path.display())),
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    let mut index = format!(
        "# {}\n\n| conversation | agent | date | messages | tools |\n|---|---|---|---:|---:|\n",
        inline_text(title)
    );
    let mut errors = 0;
    for e in library.entries() {
        let name = rows.iter().find(|(id, _)| *id == e.id).map(|(_, n)| n);
        let shown = if e.title.trim().is_empty() {
            &e.id
        } else {
            &e.title
        };
        // Titles are a run's text too (its first prompt, perhaps cut inside a
        // credential): they pass the hook.
        let mut cell = |s: &str| inline_text(&docstream_library::site::Mask::text(redact, s));
        let conversation = match (name, &e.error) {
            (Some(name), _) => format!("[{}](c/{name}.md)", cell(shown)),
            (None, Some(err)) => {
                errors += 1;
                format!("{} — error: {}", cell(shown), cell(err))
            }
            (None, None) => cell(shown),
        };
        let date = e.created.as_deref().unwrap_or("");
        index.push_str(&format!(
            "| {conversation} | {} | {} | {} | {} |\n",
            cell(e.agent.label()),
            cell(date.get(..19).unwrap_or(date)),
            e.messages,
            e.tools
        ));
    }
    let path = dir.join("index.md");
    fs::write(&path, index).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(Written { files, errors })
}
