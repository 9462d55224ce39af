//! An Anthropic message history: a JSON array of messages, a request object with
//! `messages` (and `model`, `system` …), or one response message (`"type": "message"`).
//! A history is complete: its last response ends with the input.

use serde_json_borrow::Value as Tree;

use super::blocks::{Content, Message, Role, apply_content};
use crate::formats::common::end_open_response;
use crate::formats::fields::{self, Fields, Read};
use crate::formats::{Adapter, Payload, json_error};
use crate::model::Usage;
use crate::normalize::{Event, SessionInfo, Sink};

/// The adapter (no state: each payload is a whole history).
#[derive(Default)]
pub(in crate::formats) struct Messages;

impl Adapter for Messages {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        if let Err(e) = fields::parse(p.text).and_then(|tree| read(&tree, &p, n)) {
            n.apply(Event::Error(json_error(&e, &p)));
        }
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        end_open_response(n);
    }
}

/// A payload: a list of messages, a request with `messages` (and the `model` they were
/// sent to), or a response message. Each is read whole before anything is applied, so a
/// payload that is not of their shape is one error and nothing else.
fn read(tree: &Tree<'_>, p: &Payload<'_>, n: &mut dyn Sink) -> Read<()> {
    if let Tree::Array(items) = tree {
        let list = items
            .iter()
            .map(|m| Fields::of(m, "a message").and_then(Message::read))
            .collect::<Read<Vec<_>>>()?;
        history(list, p, n);
        return Ok(());
    }
    let f = Fields::of(tree, "the payload")?;
    let messages = f.list("messages", Message::read)?;
    let model = f.string("model")?;
    let kind = f.str("type")?;
    if let Some(list) = messages {
        n.apply(Event::Session(SessionInfo {
            model,
            ..SessionInfo::default()
        }));
        history(list, p, n);
    } else if kind == Some("message") {
        response(Message::read(f)?, p, n);
    } else {
        n.apply(Event::Unknown);
    }
    Ok(())
}

/// Messages in order; the last response ends with them.
fn history(list: Vec<Message<'_>>, p: &Payload<'_>, n: &mut dyn Sink) {
    for m in list {
        message(m, p, n);
    }
    end_open_response(n);
}

fn message(m: Message<'_>, p: &Payload<'_>, n: &mut dyn Sink) {
    let Some(role) = Role::parse(m.role) else {
        // `system` and other roles have nothing to show.
        return;
    };
    match Content::read(m.content) {
        Ok(content) => apply_content(role, content, None, n),
        Err(e) => n.apply(Event::Error(json_error(&e, p))),
    }
}

/// One response message (the non-streaming API's answer).
fn response(mut m: Message<'_>, p: &Payload<'_>, n: &mut dyn Sink) {
    n.apply(Event::ResponseStart(SessionInfo {
        response_id: m.id.clone(),
        model: m.model.clone(),
        ..SessionInfo::default()
    }));
    let stop_reason = m.stop_reason.clone();
    let usage = m.usage.take().map(Usage::from);
    message(
        Message {
            role: "assistant",
            ..m
        },
        p,
        n,
    );
    n.apply(Event::stopped(stop_reason));
    if let Some(u) = usage {
        n.apply(Event::Usage(u));
    }
    n.apply(Event::Done { error: None });
}
