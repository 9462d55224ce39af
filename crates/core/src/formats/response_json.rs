//! A complete response object (seed 000 §2–4), an array of them, or a conversation
//! saved by docstream itself (`{ turns: [...] }`, as `docstream json` prints it).

use serde_json::Value;

use super::{Adapter, Payload, json_error, parse};
use crate::error::codes;
use crate::model::{Conversation, Problem, Response, Turn, unknown};
use crate::normalize::{Event, Sink};

enum Saved {
    Conversation(Conversation),
    Response(Box<Response>),
    Responses(Vec<Response>),
}

impl Saved {
    /// What `#[serde(untagged)]` would give (a conversation, else a response, else an
    /// array of responses), read from one `Value`: the model's types are then
    /// deserialised from `Value` only, as their metadata already is, instead of also
    /// from serde's buffered `Content` twice over (about 60 KB of wasm).
    fn from_value(v: Value) -> Result<Saved, serde_json::Error> {
        use docstream_model::read_json::from_value as f;
        if v.is_array() {
            return f(v).map(Saved::Responses);
        }
        if v.get("turns").is_some() {
            if let Ok(c) = f(v.clone()) {
                return Ok(Saved::Conversation(c));
            }
        }
        f(v).map(|r| Saved::Response(Box::new(r)))
    }
}

pub(crate) struct ResponseJson;

impl Adapter for ResponseJson {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        unknown::take(); // anything noted before this value is not its own
        let saved = parse::<Value>(&p, n).and_then(|v| match Saved::from_value(v) {
            Ok(saved) => Some(saved),
            Err(e) => {
                n.apply(Event::Error(json_error(&e, &p)));
                None
            }
        });
        let (count, names) = unknown::take();
        if count > 0 {
            n.apply(Event::UnknownValues {
                count,
                problem: Problem {
                    code: codes::UNKNOWN_VALUE.to_owned(),
                    message: format!(
                        "{}: {count} value{} docstream does not know, kept as unknown: {}{}.",
                        p.at,
                        if count == 1 { "" } else { "s" },
                        names.join(", "),
                        if count > names.len() as u64 {
                            " …"
                        } else {
                            ""
                        }
                    ),
                    line: p.at.line,
                    offset: Some(p.at.offset),
                },
            });
        }
        let Some(saved) = saved else {
            return;
        };
        match saved {
            Saved::Response(r) => n.apply(Event::Response(r)),
            Saved::Responses(rs) => rs
                .into_iter()
                .for_each(|r| n.apply(Event::Response(Box::new(r)))),
            Saved::Conversation(c) => {
                for turn in c.turns {
                    match turn {
                        Turn::User(u) => {
                            n.apply(Event::PromptsFrom(u.from));
                            n.apply(Event::UserPrompt {
                                text: u.content.into(),
                                attachments: u.attachments,
                            });
                        }
                        Turn::Assistant(r) => n.apply(Event::Response(Box::new(r))),
                    }
                }
            }
        }
    }
}
