//! Prints the fields that the snapshot always carries, per model type, as JSON:
//! `{"TypeName": ["field", …], …}`. `scripts/build-wasm.sh` makes those fields required
//! in `docstream.d.ts` (`scripts/exact-types.mjs`): tsify types every field with
//! `#[serde(default)]` optional, because a reader may omit it, but what docstream writes
//! always has it. A field is always written when the type's default value, serialised,
//! has it: only `skip_serializing_if` leaves a field out, and it does for empty values.

use docstream_model::*;
use serde::Serialize;

/// The type's name as TypeScript has it, and the fields its default value serialises.
fn written<T: Default + Serialize>() -> (&'static str, Vec<String>) {
    written_of(T::default())
}

/// The type's name, and the fields `empty` (a value whose optional parts are empty)
/// serialises.
fn written_of<T: Serialize>(empty: T) -> (&'static str, Vec<String>) {
    let name = std::any::type_name::<T>()
        .rsplit("::")
        .next()
        .unwrap_or_default();
    let value = serde_json::to_value(empty).expect("a model type serialises");
    let fields = value
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    (name, fields)
}

fn main() {
    // The types a snapshot is made of (inputs, such as the stream's options, keep their
    // optional fields).
    let types = [
        written::<Conversation>(),
        written::<Stats>(),
        written::<Problem>(),
        written::<UserTurn>(),
        written::<Attachment>(),
        written::<ChatResponse>(),
        written::<ParentCall>(),
        written::<Rewound>(),
        written::<Compaction>(),
        written::<ResponseMetadata>(),
        written::<Usage>(),
        written::<TextMeta>(),
        written::<CodeReferenceMeta>(),
        written::<CodeBlockMeta>(),
        written::<Diff>(),
        written::<FileEditMeta>(),
        written_of(ToolResult {
            status: CallStatus::Success,
            data: serde_json::Value::Null,
        }),
        written::<ToolCallMeta>(),
        written::<Subagent>(),
        written::<TerminalMeta>(),
        written::<PlanTodo>(),
        written::<PlanMeta>(),
        written_of(PlanApproval {
            status: ApprovalStatus::Approved,
            feedback: None,
        }),
        written::<ClarificationOption>(),
        written::<ClarificationQuestion>(),
        written::<ClarificationMeta>(),
        written::<ErrorMeta>(),
        written::<TodoChange>(),
        written::<TodoUpdateMeta>(),
        written::<ThinkingMeta>(),
    ];
    let map: serde_json::Map<String, serde_json::Value> = types
        .into_iter()
        .map(|(name, fields)| (name.to_owned(), fields.into()))
        .collect();
    println!("{}", serde_json::Value::Object(map));
}
