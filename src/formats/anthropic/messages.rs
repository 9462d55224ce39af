//! An Anthropic message history: a JSON array of messages, a request object with
//! `messages` (and `model`, `system` …), or one response message (`"type": "message"`).
//! A history is complete: its last response ends with the input.

use std::borrow::Cow;

use serde::Deserialize;

use super::blocks::{Content, Message, Role, apply_content};
use crate::formats::common::end_open_response;
use crate::formats::{Adapter, Payload, json_error, parse};
use crate::model::Usage;
use crate::normalize::{Event, SessionInfo, Sink};

/// A request: the messages and the model they were sent to.
#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow, default)]
    messages: Option<Vec<Message<'a>>>,
    #[serde(default)]
    model: Option<String>,
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
}

/// The adapter (no state: each payload is a whole history).
#[derive(Default)]
pub(in crate::formats) struct Messages;

impl Adapter for Messages {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        if p.text.trim_start().starts_with('[') {
            if let Some(list) = parse::<Vec<Message<'_>>>(&p, n) {
                history(list, &p, n);
            }
            return;
        }
        let Some(request) = parse::<Request<'_>>(&p, n) else {
            return;
        };
        if let Some(list) = request.messages {
            n.apply(Event::Session(SessionInfo {
                model: request.model,
                ..SessionInfo::default()
            }));
            return history(list, &p, n);
        }
        if request.kind.as_deref() == Some("message") {
            if let Some(m) = parse::<Message<'_>>(&p, n) {
                response(m, &p, n);
            }
            return;
        }
        n.apply(Event::Unknown);
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        end_open_response(n);
    }
}

/// Messages in order; the last response ends with them.
fn history(list: Vec<Message<'_>>, p: &Payload<'_>, n: &mut dyn Sink) {
    for m in list {
        message(m, p, n);
    }
    end_open_response(n);
}

fn message(m: Message<'_>, p: &Payload<'_>, n: &mut dyn Sink) {
    let Some(role) = Role::parse(&m.role) else {
        // `system` and other roles have nothing to show.
        return;
    };
    match Content::parse(m.content) {
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
            role: Cow::Borrowed("assistant"),
            ..m
        },
        p,
        n,
    );
    n.apply(Event::ResponseMeta {
        duration_ms: None,
        duration_api_ms: None,
        request_id: None,
        stop_reason,
    });
    if let Some(u) = usage {
        n.apply(Event::Usage(u));
    }
    n.apply(Event::Done { error: None });
}
