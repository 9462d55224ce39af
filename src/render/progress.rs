//! Plain-text progress lines (seed 001's `text` format): one line per agent action.

use super::labels::{Label, Locale, label};
use crate::model::{Conversation, Document, FileOperation, Meta};

/// The progress label of a document, if it is an agent action.
pub fn action_label(doc: &Document) -> Option<Label> {
    Some(match &doc.meta {
        Meta::FileEdit(m) => match m.operation {
            FileOperation::Create => Label::CreatedFile,
            FileOperation::Delete => Label::DeletedFile,
            FileOperation::Edit | FileOperation::Rename => Label::EditedFile,
        },
        Meta::TerminalCommand(_) => Label::RanCommand,
        Meta::ToolCall(m) => {
            let name = m.tool_name.to_ascii_lowercase();
            if name.contains("read") {
                Label::ReadFile
            } else {
                Label::CalledTool
            }
        }
        Meta::CodeReference(_) => Label::ReadFile,
        Meta::Plan(_) => Label::WrotePlan,
        Meta::TodoUpdate(_) => Label::UpdatedTodos,
        Meta::Clarification(_) => Label::AskedQuestion,
        _ => return None,
    })
}

/// The progress lines of a conversation, one per action, each ending in `\n`.
pub fn progress_lines(conversation: &Conversation, locale: Locale) -> String {
    let mut out = String::new();
    for doc in conversation.documents() {
        if let Some(l) = action_label(doc) {
            out.push_str(label(locale, l));
            out.push('\n');
        }
    }
    out
}
