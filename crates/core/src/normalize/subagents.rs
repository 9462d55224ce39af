//! Sub-agents: a tool call (`Task`, `Agent` …) that starts an agent of its own, whose
//! messages arrive interleaved with the main agent's (Claude Code tags them with
//! `parent_tool_use_id`). Each such run is a response of its own, in a turn added when
//! its first message comes, linked both ways: the run's `parent` names the call, the
//! call's `subagent.turn` names the run. The renderers show the run inside the call.
//!
//! The normaliser keeps one lane per agent: the open response, the step counter, the
//! plan and todo list. [`Event::Agent`](super::Event::Agent) switches lanes; the open
//! prose and thinking of the lane left are ended first, so nothing of one agent runs
//! into the other's documents.

use super::Normalizer;
use crate::model::{
    ChatResponse, DocKey, Meta, ParentCall, Response, ResponseMetadata, ResponseStatus, TodoChange,
    Turn,
};

/// Runs nested deeper than this are shown in the run of the call that started them.
pub(crate) const MAX_DEPTH: u32 = 8;

/// What the normaliser keeps of an agent while another one's events are applied.
#[derive(Debug, Default)]
pub(super) struct Lane {
    /// The lane's open response (turn index).
    open: Option<usize>,
    /// The turn of a sub-agent's run (`None` for the main agent).
    run: Option<usize>,
    /// How deep the run is nested (1 for a sub-agent of the main agent).
    depth: u32,
    after_tool_result: bool,
    latest_plan: Option<DocKey>,
    todo_list: Vec<TodoChange>,
}

impl Normalizer {
    /// Applies the events that follow to the agent that the call `parent` started, or
    /// to the main agent (`None`). A call that is not known, or that does not start a
    /// sub-agent, leaves the events with the main agent; a sub-agent nested deeper than
    /// [`MAX_DEPTH`] is shown in the run of the agent that called it.
    pub(super) fn enter_agent(&mut self, parent: Option<&str>) {
        let target = match parent {
            None => None,
            Some(id) if self.lane.as_deref() == Some(id) => return,
            Some(id) if self.lanes.contains_key(id) || self.can_start(id) => Some(id.to_owned()),
            Some(id) => self.lane_of_call(id),
        };
        if target == self.lane {
            return;
        }
        self.end_segment();
        let state = self.save_lane();
        match self.lane.take() {
            None => self.main = state,
            Some(id) => {
                self.lanes.insert(id, state);
            }
        }
        let lane = match &target {
            None => std::mem::take(&mut self.main),
            Some(id) => match self.lanes.remove(id) {
                Some(lane) => lane,
                None => self.start_run(id),
            },
        };
        self.restore_lane(lane);
        self.lane = target;
    }

    /// True when the main agent has a response open, whichever agent's lane is current
    /// (a sub-agent's run, a turn of its own, may come after it).
    pub(crate) fn main_response_open(&self) -> bool {
        let open = match self.lane {
            None => self.b.open,
            Some(_) => self.main.open,
        };
        open.is_some_and(|t| {
            matches!(
                self.conversation().turns.get(t),
                Some(Turn::Assistant(r)) if r.status == ResponseStatus::Streaming
            )
        })
    }

    /// True when `id` names a call that starts a sub-agent, not nested too deep.
    fn can_start(&self, id: &str) -> bool {
        let Some(call) = self.calls.get(id) else {
            return false;
        };
        let is_subagent = matches!(
            &self.b.doc(call.key).meta,
            Meta::ToolCall(m) if m.subagent.is_some()
        );
        is_subagent && self.depth_of(call.key.turn) < MAX_DEPTH
    }

    /// The lane whose run holds the call `id` (`None`: the main agent's, or no call).
    fn lane_of_call(&self, id: &str) -> Option<String> {
        let turn = self.calls.get(id)?.key.turn;
        if self.lane_run == Some(turn) {
            return self.lane.clone();
        }
        self.lanes
            .iter()
            .find(|(_, l)| l.run == Some(turn))
            .map(|(id, _)| id.clone())
    }

    /// How deep the run in `turn` is nested (0 for the main agent's turns).
    fn depth_of(&self, turn: usize) -> u32 {
        if self.lane.is_some() && self.lane_run == Some(turn) {
            return self.lane_depth;
        }
        self.lanes
            .values()
            .find(|l| l.run == Some(turn))
            .map_or(0, |l| l.depth)
    }

    fn save_lane(&mut self) -> Lane {
        Lane {
            open: self.b.open.take(),
            run: self.lane_run.take(),
            depth: std::mem::take(&mut self.lane_depth),
            after_tool_result: std::mem::take(&mut self.after_tool_result),
            latest_plan: self.b.latest_plan.take(),
            todo_list: std::mem::take(&mut self.todo_list),
        }
    }

    fn restore_lane(&mut self, lane: Lane) {
        self.b.open = lane.open;
        self.lane_run = lane.run;
        self.lane_depth = lane.depth;
        self.after_tool_result = lane.after_tool_result;
        self.b.latest_plan = lane.latest_plan;
        self.todo_list = lane.todo_list;
        if let (None, Some(run)) = (self.b.open, lane.run) {
            // A run that was ended has more to say (a background agent): it goes on.
            self.b.open = Some(run);
            self.b.set_status(ResponseStatus::Streaming);
        }
    }

    /// Adds the turn of the run that the call `id` starts, and links the call to it.
    fn start_run(&mut self, id: &str) -> Lane {
        let key = self.calls[id].key;
        let depth = self.depth_of(key.turn) + 1;
        let parent = self.b.doc(key);
        let document_id = parent.id.clone();
        let sub = match &parent.meta {
            Meta::ToolCall(m) => m.subagent.clone().unwrap_or_default(),
            _ => Default::default(),
        };
        let response = ChatResponse {
            id: self.b.next_response_id(),
            conversation_id: self.b.session.conversation_id.clone().unwrap_or_default(),
            mode: "agent".to_owned(),
            metadata: ResponseMetadata {
                cwd: self.b.session.cwd.clone(),
                ..ResponseMetadata::default()
            },
            parent: Some(ParentCall {
                turn: key.turn,
                index: key.index,
                document_id,
                tool_call_id: id.to_owned(),
                description: sub.description,
                agent_type: sub.agent_type,
            }),
            ..Response::default()
        };
        let run = self.b.push_turn(Turn::Assistant(response));
        if let Meta::ToolCall(m) = &mut self.b.doc_mut(key).meta {
            if let Some(s) = &mut m.subagent {
                s.turn = Some(run);
            }
        }
        Lane {
            open: Some(run),
            run: Some(run),
            depth,
            ..Lane::default()
        }
    }

    /// The call `id` got its result, or its agent said it ended: its run ends with this
    /// status (it goes on should more of it come).
    pub(super) fn end_run(&mut self, id: &str, status: ResponseStatus) {
        let here = self.lane.clone();
        let open = match self.lanes.get(id) {
            Some(lane) => lane.open.is_some(),
            None => here.as_deref() == Some(id),
        };
        if !open {
            return;
        }
        self.enter_agent(Some(id));
        self.end_response(status);
        self.enter_agent(here.as_deref());
    }

    /// Ends every run still open as cut off (the stream, or its session, ended), in
    /// the order they started, and goes back to the main agent.
    pub(super) fn cut_off_runs(&mut self) {
        let mut open: Vec<(usize, String)> = self
            .lanes
            .iter()
            .filter(|(_, l)| l.open.is_some())
            .filter_map(|(id, l)| Some((l.run?, id.clone())))
            .collect();
        if let (Some(id), Some(run)) = (&self.lane, self.lane_run) {
            open.push((run, id.clone()));
        }
        open.sort();
        for (_, id) in open {
            self.enter_agent(Some(&id));
            self.end_segment();
            self.b.close_all();
            self.cut_off();
        }
        self.enter_agent(None);
    }

    /// True while the events applied are a sub-agent's.
    pub(super) fn in_subagent(&self) -> bool {
        self.lane.is_some()
    }
}

/// The status a run ends with, from its call's result: `None` when the result says the
/// agent goes on in the background (Claude Code's `async_launched`).
pub(super) fn run_status(outcome: &super::ToolOutcome) -> Option<ResponseStatus> {
    let data = &outcome.data;
    let background = data.get("isAsync").and_then(serde_json::Value::as_bool) == Some(true)
        || data.get("status").and_then(serde_json::Value::as_str) == Some("async_launched");
    if background {
        return None;
    }
    Some(match outcome.status {
        crate::model::CallStatus::Success => ResponseStatus::Completed,
        _ => ResponseStatus::Error,
    })
}
