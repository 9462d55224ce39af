//! The document model: conversations of turns, responses of documents (seed 000 §2–6,
//! SPEC §3). Plain data that serialises in seed 000's shape; no parsing, no rendering.
//! Every other crate of docstream depends on this one, and this one on none of them.
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

mod changes;
mod conversation;
mod document;
mod lenient;
mod prices;
pub mod read_json;
pub mod snapshot;
pub mod time;
mod tool_kind;
mod tool_view;
mod totals;
pub mod unknown;

pub use changes::{Changes, DocChange, DocKey};
pub use conversation::{
    Attachment, ChatResponse, Compaction, Conversation, ParentCall, Problem, PromptFrom, Response,
    ResponseMetadata, ResponseStatus, Rewound, Stats, Turn, Usage, UserTurn,
};
pub use document::{
    ApprovalStatus, CallStatus, ClarificationMeta, ClarificationOption, ClarificationQuestion,
    CodeBlockMeta, CodeReferenceMeta, DOCUMENT_TYPES_TS, Diff, Document, DocumentType, ErrorMeta,
    FileEditMeta, FileOperation, Meta, PlanApproval, PlanMeta, PlanTodo, Subagent, TerminalMeta,
    TextFormat, TextMeta, ThinkingMeta, TodoChange, TodoStatus, TodoUpdateMeta, ToolCallMeta,
    ToolResult, meta_from_value,
};
pub use prices::{Cost, PRICE_FIELDS, Price, PriceError, Prices, input_counts_cache};
pub use tool_kind::ToolKind;
pub use tool_view::{
    FileGroup, GenericView, ReadView, RunFacts, SearchKind, SearchView, SubagentView, ToolView,
    ViewText, WebFetchView, WebLink, WebSearchView,
};
pub use totals::{Totals, add_usage};
