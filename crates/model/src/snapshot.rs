//! A snapshot (a conversation written as JSON by docstream) read back whole. The links
//! only docstream makes (a sub-agent run's parent call and a call's run, rewound turns)
//! are not read back from a saved conversation of another kind (see
//! `document::not_read_back`): [`read_snapshot`] reads them from docstream's own JSON,
//! for the modules that hand a stream's state to one another (the element's default
//! module to the full one, either to the masking one).

use serde::Deserialize;
use serde_json::Value;

use crate::read_json;
use crate::{Conversation, Meta, ParentCall, Rewound, Turn};

/// The links a snapshot writes and deserialising does not read back, from its JSON.
#[derive(Deserialize, Default)]
#[serde(default)]
struct TurnLinks {
    parent: Option<ParentCall>,
    rewound: Option<Rewound>,
    documents: Vec<DocLinks>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct DocLinks {
    metadata: MetaLinks,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct MetaLinks {
    subagent: Option<SubagentLink>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct SubagentLink {
    turn: Option<usize>,
}

/// The conversation a snapshot (`snapshot()` as JSON) holds, its links included. What
/// the normaliser derives and a snapshot leaves out (a tool call's view) is not here.
pub fn read_snapshot(json: &str) -> Result<Conversation, serde_json::Error> {
    let value: Value = read_json::from_str(json)?;
    let links: Vec<TurnLinks> = match value.get("turns") {
        Some(turns) => read_json::from_value(turns.clone())?,
        None => Vec::new(),
    };
    let mut conversation: Conversation = read_json::from_value(value)?;
    for (turn, links) in conversation.turns.iter_mut().zip(links) {
        match turn {
            Turn::User(u) => u.rewound = links.rewound,
            Turn::Assistant(r) => {
                r.parent = links.parent;
                r.rewound = links.rewound;
                for (d, l) in r.documents.iter_mut().zip(links.documents) {
                    if let Meta::ToolCall(m) = &mut d.meta {
                        if let Some(sub) = m.subagent.as_mut() {
                            sub.turn = l.metadata.subagent.and_then(|s| s.turn);
                        }
                    }
                }
            }
        }
    }
    Ok(conversation)
}
