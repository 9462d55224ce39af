//! A Responses API response object (`"object": "response"`), as the API returns it
//! without streaming or as it was saved: the response's fields, then each item of its
//! `output` ([`items`](super::items)), then its status and usage. A payload that is a
//! JSON array holds one response object per element.

use crate::formats::common::for_each_event;
use crate::formats::fields::{self, Fields, Read, each};
use crate::formats::{Adapter, Payload, json_error};
use crate::normalize::{Event, Sink};

use super::items::{Head, Item, Items, end};

/// The adapter (no state between payloads: each is a whole response).
#[derive(Default)]
pub(in crate::formats) struct ResponseObject;

impl Adapter for ResponseObject {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        for_each_event(p, n, |p, n| {
            if let Err(e) = read(&p, n) {
                n.apply(Event::Error(json_error(&e, &p)));
            }
        });
    }
}

/// Reads a whole response before applying anything, so that a payload not of its
/// shape is one error document and nothing else.
fn read(p: &Payload<'_>, n: &mut dyn Sink) -> Read<()> {
    let tree = fields::parse(p.text)?;
    let f = Fields::of(&tree, "the response")?;
    if f.str("object")? != Some("response") {
        n.apply(Event::Unknown);
        return Ok(());
    }
    let head = Head::read(f)?;
    let output = each(f.array("output")?.unwrap_or_default(), "output", Item::read)?;
    n.apply(Event::ResponseStart(head.info()));
    let mut items = Items::default();
    for item in output {
        items.done(item, p, n);
    }
    end(head, &p.at, n);
    Ok(())
}
