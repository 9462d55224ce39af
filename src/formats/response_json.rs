//! A complete response object (seed 000 §2–4), an array of them, or a conversation
//! saved by docstream itself (`{ turns: [...] }`, as `docstream json` prints it).

use serde::Deserialize;

use super::{Adapter, Payload, parse};
use crate::model::{Conversation, Response, Turn};
use crate::normalize::{Event, Normalizer};

#[derive(Deserialize)]
#[serde(untagged)]
enum Saved {
    Conversation(Conversation),
    Response(Box<Response>),
    Responses(Vec<Response>),
}

pub(crate) struct ResponseJson;

impl Adapter for ResponseJson {
    fn payload(&mut self, p: Payload<'_>, n: &mut Normalizer) {
        let Some(saved) = parse::<Saved>(&p, n) else {
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
                        Turn::User(u) => n.apply(Event::UserPrompt {
                            text: u.content.into(),
                            attachments: u.attachments,
                        }),
                        Turn::Assistant(r) => n.apply(Event::Response(Box::new(r))),
                    }
                }
            }
        }
    }
}
