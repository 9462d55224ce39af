//! One document of a response: the shape of seed 000 §3 and §6.
//!
//! A document serialises as `{ id, type, sequence, content, metadata }`, with the
//! metadata fields named exactly as seed 000 §6's TypeScript interfaces. Fields the
//! seeds do not name (see SPEC §3) are optional and left out when absent, so a response
//! in seed 000's shape round-trips unchanged.

use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// One document: an ordered, typed part of a response.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// Unique id (`doc_001` …), from the stream where it names one.
    pub id: String,
    /// 1-based position within its response.
    pub sequence: u32,
    /// The document's text: prose, code, the new file content; `None` where the type has
    /// none (tool calls, terminal runs).
    pub content: Option<String>,
    /// The type and its type-specific metadata.
    pub meta: Meta,
}

/// The document types, written once: each line gives the variant of [`DocumentType`]
/// and [`Meta`], its metadata type, its wire name and its class-name fragment.
macro_rules! document_types {
    ($($(#[$doc:meta])* $variant:ident($meta:ty) = $wire:literal, $class:literal;)*) => {
        /// The `type` string of a document.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum DocumentType {
            $($(#[$doc])* $variant,)*
        }

        impl DocumentType {
            /// Every type, in the order of seed 000 §3 (plus `thinking`).
            pub const ALL: &'static [DocumentType] = &[$(DocumentType::$variant,)*];

            /// The wire name (`"code_reference"` …).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(DocumentType::$variant => $wire,)*
                }
            }

            /// The fragment of the document element's class (`ds-code-reference` …).
            pub fn class_name(self) -> &'static str {
                match self {
                    $(DocumentType::$variant => $class,)*
                }
            }
        }

        /// The TypeScript declarations of `Document` (one `DocumentOf` per type, with its
        /// metadata's interface) and `DocumentType`, from this table, for `docstream.d.ts`.
        pub const DOCUMENT_TYPES_TS: &str = concat!(
            "/** One document of a response (seed 000 §3): its `type` decides its `metadata`. */\n",
            "export type Document =",
            $("\n  | DocumentOf<\"", $wire, "\", ", stringify!($meta), ">",)*
            ";\n\n/** The document types (seed 000 §6, plus `thinking`). */\n",
            "export type DocumentType =",
            $("\n  | \"", $wire, "\"",)*
            ";\n"
        );

        /// A document's type-specific metadata; the variant is the document's type.
        #[derive(Debug, Clone, PartialEq)]
        pub enum Meta {
            $($(#[$doc])* $variant($meta),)*
        }

        impl Meta {
            /// The document type this metadata belongs to.
            pub fn doc_type(&self) -> DocumentType {
                match self {
                    $(Meta::$variant(_) => DocumentType::$variant,)*
                }
            }

            /// Empty metadata of a type, for a document announced before its details
            /// arrive (seed 000 §5 `document_start`).
            pub fn empty(doc_type: DocumentType) -> Meta {
                match doc_type {
                    $(DocumentType::$variant => Meta::$variant(<$meta>::default()),)*
                }
            }
        }
    };
}

document_types! {
    /// `text`: Markdown prose.
    Text(TextMeta) = "text", "text";
    /// `code_reference`: a quote of existing code (`startLine:endLine:path`).
    CodeReference(CodeReferenceMeta) = "code_reference", "code-reference";
    /// `code_block`: new or proposed code.
    CodeBlock(CodeBlockMeta) = "code_block", "code-block";
    /// `file_edit`: a change to a file.
    FileEdit(FileEditMeta) = "file_edit", "file-edit";
    /// `tool_call`: any other tool call.
    ToolCall(ToolCallMeta) = "tool_call", "tool-call";
    /// `terminal_command`: a shell command run.
    TerminalCommand(TerminalMeta) = "terminal_command", "terminal-command";
    /// `plan`: a plan with todos.
    Plan(PlanMeta) = "plan", "plan";
    /// `clarification`: questions for the user.
    Clarification(ClarificationMeta) = "clarification", "clarification";
    /// `error`: a failure.
    Error(ErrorMeta) = "error", "error";
    /// `todo_update`: a change to the status of todos.
    TodoUpdate(TodoUpdateMeta) = "todo_update", "todo-update";
    /// `thinking`: reasoning text (an addition to seed 000, SPEC §3).
    Thinking(ThinkingMeta) = "thinking", "thinking";
}

impl DocumentType {
    /// Parses a wire name; `None` for an unknown type.
    pub fn parse(name: &str) -> Option<DocumentType> {
        DocumentType::ALL
            .iter()
            .copied()
            .find(|t| t.as_str() == name)
    }
}

impl Document {
    /// The document's type.
    pub fn doc_type(&self) -> DocumentType {
        self.meta.doc_type()
    }

    /// The content, or `""` where there is none.
    pub fn text(&self) -> &str {
        self.content.as_deref().unwrap_or("")
    }
}

/// `text` metadata.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct TextMeta {
    /// `markdown` or `plain`.
    #[serde(default)]
    #[serde(deserialize_with = "super::lenient::value")]
    pub format: TextFormat,
}

/// How a text document's content is to be read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum TextFormat {
    /// CommonMark with the GitHub extensions.
    #[default]
    Markdown,
    /// Plain text.
    Plain,
    /// One JSON value (an object or an array) and nothing else: shown as highlighted
    /// JSON (addition). The normaliser sets it when a text document that ended holds
    /// exactly one such value.
    Json,
}

/// `code_reference` metadata.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CodeReferenceMeta {
    /// Path of the quoted file.
    #[serde(default)]
    pub file_path: String,
    /// First quoted line (1-based).
    #[serde(default)]
    #[serde(deserialize_with = "super::lenient::value")]
    pub start_line: u64,
    /// Last quoted line.
    #[serde(default)]
    #[serde(deserialize_with = "super::lenient::value")]
    pub end_line: u64,
    /// Language, from the file's extension where the stream does not say.
    #[serde(default)]
    pub language: String,
}

/// `code_block` metadata.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CodeBlockMeta {
    /// The fence's language tag.
    #[serde(default)]
    pub language: String,
    /// `new_code`, `example` or `suggestion`.
    #[serde(default)]
    pub purpose: String,
}

/// The operation of a `file_edit`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum FileOperation {
    /// A new file; `content` is its text.
    Create,
    /// A change; `diff` says what changed.
    #[default]
    Edit,
    /// The file was removed.
    Delete,
    /// The file was moved to `newPath`.
    Rename,
}

/// The old and new text of an edit.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Diff {
    /// The text replaced.
    #[serde(default)]
    pub old_string: String,
    /// The text put in its place.
    #[serde(default)]
    pub new_string: String,
    /// Line of the file where `oldString` starts (1-based).
    #[serde(default = "one")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub start_line: u64,
    /// Line where `oldString` ends.
    #[serde(default = "one")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub end_line: u64,
}

fn one() -> u64 {
    1
}

/// How far a tool-backed document got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum CallStatus {
    /// Started, no result yet.
    Running,
    /// Finished successfully.
    Success,
    /// Finished with an error.
    Error,
    /// Turned down by the user when it was put to them (Claude Code's "the user
    /// doesn't want to proceed", Cursor's `rejected`).
    Rejected,
    /// Its turn or the stream ended before its result came (addition).
    #[serde(rename = "no_result")]
    NoResult,
    /// Not allowed to run: a permission rule or policy refused it, or the user declined
    /// its approval (Cursor's `permissionDenied`, Codex's `declined`, Gemini CLI's
    /// `policy_violation`) (addition).
    Denied,
    /// Stopped by the user while it ran or waited (Claude Code's "Request interrupted
    /// by user", Gemini CLI's cancelled calls, Codex's aborted turns) (addition).
    Interrupted,
}

impl CallStatus {
    /// True for the outcomes where the call did not do what it was asked: refused,
    /// stopped or failed (never shown as a success).
    pub fn refused(self) -> bool {
        matches!(
            self,
            CallStatus::Rejected | CallStatus::Denied | CallStatus::Interrupted
        )
    }
}

/// `file_edit` metadata.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct FileEditMeta {
    /// Path of the file.
    #[serde(default)]
    pub file_path: String,
    /// What was done to it.
    #[serde(default)]
    #[serde(deserialize_with = "super::lenient::value")]
    pub operation: FileOperation,
    /// Language, from the extension.
    #[serde(default)]
    pub language: String,
    /// Old and new text, where both are known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<Diff>,
    /// A unified diff, where that is what the format gives (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff_string: Option<String>,
    /// The new path of a `rename` (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_path: Option<String>,
    /// Lines added, as the tool reported (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub lines_added: Option<u64>,
    /// Lines removed, as the tool reported (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub lines_removed: Option<u64>,
    /// Name of the tool that made the edit (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// Id of the tool call that made the edit (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// Progress of that call (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::optional_call_status")]
    pub status: Option<CallStatus>,
    /// The tool's error message when the edit failed (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Result of a tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ToolResult {
    /// `success`, `error` or `rejected`.
    #[serde(deserialize_with = "super::lenient::call_status")]
    pub status: CallStatus,
    /// What the tool returned, kept whole.
    #[serde(default)]
    #[cfg_attr(feature = "tsify", tsify(type = "unknown"))]
    pub data: Value,
}

/// `tool_call` metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ToolCallMeta {
    /// The tool's name as the format spells it.
    #[serde(default)]
    pub tool_name: String,
    /// Id pairing start and result.
    #[serde(default)]
    pub tool_call_id: String,
    /// Arguments, kept whole.
    #[serde(default = "empty_object")]
    #[cfg_attr(feature = "tsify", tsify(type = "unknown"))]
    pub arguments: Value,
    /// The result; absent while the call runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ToolResult>,
    /// How long the call took.
    #[serde(
        default,
        rename = "duration_ms",
        skip_serializing_if = "Option::is_none"
    )]
    #[serde(deserialize_with = "super::lenient::value")]
    pub duration_ms: Option<u64>,
    /// Set on a generic document: one of a type docstream does not know (from a saved
    /// response), kept with this type name, its metadata as `arguments` and its content
    /// as the result, and written back as it came.
    #[serde(skip)]
    pub document_type: Option<String>,
    /// `no_result` when the call's turn or the stream ended before its result came;
    /// otherwise absent and the status follows the result (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::optional_call_status")]
    pub status: Option<CallStatus>,
    /// Set on a call that starts a sub-agent (Claude Code's `Task` or `Agent`, Cursor's
    /// `taskToolCall`): what it was asked, and where its run is (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent: Option<Subagent>,
    /// What kind of tool it is, as the call's format names it (addition): `read`,
    /// `grep`, `web_fetch` … or `other`. Absent from a response saved by an earlier
    /// version (and kept absent: a saved response round-trips unchanged); the
    /// normaliser then looks the name up in the tables of the format being read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_kind: Option<super::ToolKind>,
    /// What the call did, read by the normaliser from its kind, arguments and result
    /// (a file read, a search, a sub-agent …): what the renderers show. Derived, so not
    /// serialised; the normaliser makes it again for a response it loads.
    #[serde(skip)]
    pub view: super::ToolView,
    /// The message of a failed or rejected result, read by the normaliser; `None` when
    /// the result says none (derived, not serialised).
    #[serde(skip)]
    pub error: Option<String>,
}

/// The sub-agent a tool call started (addition): its run is a response of its own,
/// `conversation.turns[turn]`, whose `parent` names this call.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Subagent {
    /// What it was asked to do, in a few words (the call's `description`).
    #[serde(default)]
    pub description: String,
    /// The kind of agent (`subagent_type`), where the call names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
    /// Index of the turn that holds the sub-agent's run, once its first message came.
    /// Only docstream links runs: a saved value is not read back.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "not_read_back"
    )]
    pub turn: Option<usize>,
}

/// Reads past a value that docstream writes but does not take back from a saved
/// conversation (the links between runs: only the normaliser makes them, so that they
/// always agree).
pub(crate) fn not_read_back<'de, D: Deserializer<'de>, T>(d: D) -> Result<Option<T>, D::Error> {
    serde::de::IgnoredAny::deserialize(d)?;
    Ok(None)
}

impl Default for ToolCallMeta {
    fn default() -> Self {
        ToolCallMeta {
            tool_name: String::new(),
            tool_call_id: String::new(),
            arguments: empty_object(),
            result: None,
            duration_ms: None,
            status: None,
            document_type: None,
            subagent: None,
            tool_kind: None,
            view: super::ToolView::default(),
            error: None,
        }
    }
}

impl ToolCallMeta {
    /// A generic document: a type docstream does not know, kept whole.
    pub fn generic(doc_type: &str, metadata: Value, content: Option<&str>) -> ToolCallMeta {
        ToolCallMeta {
            tool_name: doc_type.to_owned(),
            arguments: metadata,
            result: content.map(|c| ToolResult {
                status: CallStatus::Success,
                data: Value::String(c.to_owned()),
            }),
            document_type: Some(doc_type.to_owned()),
            ..ToolCallMeta::default()
        }
    }
}

impl ToolCallMeta {
    /// Progress of the call: `running` until a result arrives, `no_result` when its
    /// turn ended without one.
    pub fn status(&self) -> CallStatus {
        self.result
            .as_ref()
            .map(|r| r.status)
            .or(self.status)
            .unwrap_or(CallStatus::Running)
    }

    /// The arguments a person is shown for a call in the generic view: those given to
    /// an MCP server's tool where the call wraps them
    /// ([`GenericView::arguments_field`](super::GenericView::arguments_field)), else
    /// the call's own.
    pub fn shown_arguments(&self) -> &Value {
        match &self.view {
            super::ToolView::Generic(g) => g
                .arguments_field
                .as_ref()
                .and_then(|f| self.arguments.get(f))
                .unwrap_or(&self.arguments),
            _ => &self.arguments,
        }
    }

    /// The text of a view (`""` where the result does not hold it).
    pub fn view_text<'a>(&'a self, text: &'a super::ViewText) -> &'a str {
        match text {
            super::ViewText::Made(s) => s,
            super::ViewText::InResult(at) => self
                .result
                .as_ref()
                .and_then(|r| r.data.pointer(at))
                .and_then(Value::as_str)
                .unwrap_or_default(),
        }
    }
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

/// `terminal_command` metadata.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct TerminalMeta {
    /// The command line.
    #[serde(default)]
    pub command: String,
    /// Where it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_directory: Option<String>,
    /// Exit code; absent while it runs or when the tool did not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub exit_code: Option<i64>,
    /// Output (stdout, then stderr where the tool separates them).
    #[serde(default)]
    pub output: String,
    /// How long it ran.
    #[serde(
        default,
        rename = "duration_ms",
        skip_serializing_if = "Option::is_none"
    )]
    #[serde(deserialize_with = "super::lenient::value")]
    pub duration_ms: Option<u64>,
    /// Permissions the command asked for.
    #[serde(default)]
    pub permissions: Vec<String>,
    /// Id of the tool call (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// Progress of the call (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::optional_call_status")]
    pub status: Option<CallStatus>,
    /// Run in the background (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_background: Option<bool>,
    /// Why the command did not run or was stopped, as the tool said it (a permission
    /// rule, the user's answer), for a `denied`, `rejected` or `interrupted` call
    /// (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Status of a todo.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    /// Not started.
    #[default]
    Pending,
    /// Being worked on.
    InProgress,
    /// Done.
    Completed,
    /// Dropped.
    Cancelled,
    /// A status docstream does not know (from a saved response written by a newer
    /// version), counted in `stats.unknownValues`.
    Unknown,
}

impl TodoStatus {
    /// Reads the spellings the formats use: `in_progress`, `inProgress`,
    /// `TODO_STATUS_IN_PROGRESS`, `done`, `canceled` …; `None` when unknown.
    pub fn parse(s: &str) -> Option<TodoStatus> {
        let s = s.trim();
        let s = s.strip_prefix("TODO_STATUS_").unwrap_or(s);
        let norm: String = s
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        Some(match norm.as_str() {
            "pending" | "todo" | "notstarted" | "open" => TodoStatus::Pending,
            "inprogress" | "active" | "running" | "started" => TodoStatus::InProgress,
            "completed" | "complete" | "done" | "finished" => TodoStatus::Completed,
            "cancelled" | "canceled" | "skipped" => TodoStatus::Cancelled,
            "unknown" => TodoStatus::Unknown,
            _ => return None,
        })
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            TodoStatus::Pending => "pending",
            TodoStatus::InProgress => "in_progress",
            TodoStatus::Completed => "completed",
            TodoStatus::Cancelled => "cancelled",
            TodoStatus::Unknown => "unknown",
        }
    }
}

impl<'de> Deserialize<'de> for TodoStatus {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = std::borrow::Cow::<str>::deserialize(d)?;
        Ok(TodoStatus::parse(&s).unwrap_or_else(|| {
            super::unknown::note(format!("todo status {s:?}"));
            TodoStatus::Unknown
        }))
    }
}

/// One todo of a plan.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct PlanTodo {
    /// Id that dependencies and updates refer to.
    pub id: String,
    /// What is to be done.
    #[serde(default)]
    pub content: String,
    /// Current status.
    #[serde(default)]
    pub status: TodoStatus,
    /// Ids of the todos this one waits for.
    #[serde(default)]
    pub dependencies: Vec<String>,
}

/// `plan` metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PlanMeta {
    /// The plan's title.
    #[serde(default)]
    pub title: String,
    /// A summary (Markdown).
    #[serde(default)]
    pub overview: String,
    /// The todos, as written.
    #[serde(default)]
    pub todos: Vec<PlanTodo>,
    /// Always `markdown`.
    #[serde(default = "markdown")]
    pub format: String,
    /// Id of the tool call that wrote the plan (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// What the user decided, for a plan put to them for approval (Claude Code's
    /// `ExitPlanMode`, Cursor's plan request), once they have (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<PlanApproval>,
}

impl Default for PlanMeta {
    fn default() -> Self {
        PlanMeta {
            title: String::new(),
            overview: String::new(),
            todos: Vec::new(),
            format: markdown(),
            tool_call_id: None,
            approval: None,
        }
    }
}

/// The user's answer to a plan put to them (addition).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct PlanApproval {
    /// Approved or rejected.
    pub status: ApprovalStatus,
    /// What the user said with their answer, where they said something.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
}

/// Whether the user approved a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum ApprovalStatus {
    /// The user let the agent go on with the plan.
    Approved,
    /// The user turned the plan down.
    Rejected,
    /// A value docstream does not know (from a saved response written by a newer
    /// version), counted in `stats.unknownValues`.
    Unknown,
}

impl<'de> Deserialize<'de> for ApprovalStatus {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = std::borrow::Cow::<str>::deserialize(d)?;
        Ok(match s.as_ref() {
            "approved" => ApprovalStatus::Approved,
            "rejected" => ApprovalStatus::Rejected,
            "unknown" => ApprovalStatus::Unknown,
            _ => {
                super::unknown::note(format!("plan approval {s:?}"));
                ApprovalStatus::Unknown
            }
        })
    }
}

fn markdown() -> String {
    "markdown".to_owned()
}

/// One option of a clarifying question.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ClarificationOption {
    /// Id reported when the option is picked.
    #[serde(default)]
    pub id: String,
    /// What the user reads.
    #[serde(default)]
    pub label: String,
}

/// One clarifying question.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ClarificationQuestion {
    /// Id reported with the choice.
    #[serde(default)]
    pub id: String,
    /// The question.
    #[serde(default)]
    pub text: String,
    /// The options offered.
    #[serde(default)]
    pub options: Vec<ClarificationOption>,
}

/// `clarification` metadata.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ClarificationMeta {
    /// The questions asked.
    #[serde(default)]
    pub questions: Vec<ClarificationQuestion>,
}

/// `error` metadata.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ErrorMeta {
    /// A stable code (`FILE_NOT_FOUND`, `MALFORMED_JSON`, `STREAM_CUT_OFF` …).
    #[serde(default)]
    pub error_code: String,
    /// What failed: a tool name, `stream`, `model` ….
    #[serde(default)]
    pub source: String,
    /// Where and why, for a person.
    #[serde(default)]
    pub details: String,
}

/// One status change of a `todo_update`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct TodoChange {
    /// The todo's id.
    pub id: String,
    /// Its new status.
    #[serde(default)]
    pub status: TodoStatus,
    /// Its text, where the update carries it (addition: a todo list written without a
    /// plan still shows as a checklist).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// `todo_update` metadata.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct TodoUpdateMeta {
    /// The changes.
    #[serde(default)]
    pub todos: Vec<TodoChange>,
    /// True when the update merges into the list; false when it replaces it (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merge: Option<bool>,
    /// Id of the tool call (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// The whole list after a merging update (`merge: true`) applied to the list before
    /// it in the same session, in order; empty when the update is the whole list
    /// (addition).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_todos: Vec<TodoChange>,
}

/// `thinking` metadata (addition).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ThinkingMeta {
    /// The provider's signature over the reasoning, where it sends one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// True when the provider withheld the text.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub redacted: bool,
    /// How long the model thought, where the format says.
    #[serde(
        default,
        rename = "duration_ms",
        skip_serializing_if = "Option::is_none"
    )]
    #[serde(deserialize_with = "super::lenient::value")]
    pub duration_ms: Option<u64>,
}

impl Serialize for Document {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Document", 5)?;
        st.serialize_field("id", &self.id)?;
        if let Meta::ToolCall(ToolCallMeta {
            document_type: Some(t),
            arguments,
            ..
        }) = &self.meta
        {
            // A generic document, written back as it came.
            st.serialize_field("type", t)?;
            st.serialize_field("sequence", &self.sequence)?;
            st.serialize_field("content", &self.content)?;
            st.serialize_field("metadata", arguments)?;
            return st.end();
        }
        st.serialize_field("type", self.doc_type().as_str())?;
        st.serialize_field("sequence", &self.sequence)?;
        st.serialize_field("content", &self.content)?;
        match &self.meta {
            Meta::Text(m) => st.serialize_field("metadata", m)?,
            Meta::CodeReference(m) => st.serialize_field("metadata", m)?,
            Meta::CodeBlock(m) => st.serialize_field("metadata", m)?,
            Meta::FileEdit(m) => st.serialize_field("metadata", m)?,
            Meta::ToolCall(m) => st.serialize_field("metadata", m)?,
            Meta::TerminalCommand(m) => st.serialize_field("metadata", m)?,
            Meta::Plan(m) => st.serialize_field("metadata", m)?,
            Meta::Clarification(m) => st.serialize_field("metadata", m)?,
            Meta::Error(m) => st.serialize_field("metadata", m)?,
            Meta::TodoUpdate(m) => st.serialize_field("metadata", m)?,
            Meta::Thinking(m) => st.serialize_field("metadata", m)?,
        }
        st.end()
    }
}

impl<'de> Deserialize<'de> for Document {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Raw {
            id: String,
            #[serde(rename = "type")]
            doc_type: String,
            #[serde(default, deserialize_with = "super::lenient::value")]
            sequence: u32,
            #[serde(default)]
            content: Option<String>,
            #[serde(default)]
            metadata: Option<Value>,
        }
        let raw = Raw::deserialize(d)?;
        let metadata = match raw.metadata {
            Some(Value::Null) | None => Value::Object(serde_json::Map::new()),
            Some(v) => v,
        };
        // A type docstream does not know, or metadata it cannot read (a value of a newer
        // version), is kept as a generic document and counted; the rest still loads.
        let meta = match DocumentType::parse(&raw.doc_type) {
            Some(doc_type) => match meta_from_value(doc_type, metadata.clone()) {
                Ok(meta) => meta,
                Err(e) => {
                    super::unknown::note(format!(
                        "metadata of the {} document {:?} ({e})",
                        raw.doc_type, raw.id
                    ));
                    Meta::ToolCall(ToolCallMeta::generic(
                        &raw.doc_type,
                        metadata,
                        raw.content.as_deref(),
                    ))
                }
            },
            None => {
                super::unknown::note(format!("document type {:?}", raw.doc_type));
                Meta::ToolCall(ToolCallMeta::generic(
                    &raw.doc_type,
                    metadata,
                    raw.content.as_deref(),
                ))
            }
        };
        Ok(Document {
            id: raw.id,
            sequence: raw.sequence,
            content: raw.content,
            meta,
        })
    }
}

/// Reads a document type's metadata from a JSON value.
pub fn meta_from_value(doc_type: DocumentType, v: Value) -> Result<Meta, serde_json::Error> {
    use crate::read_json::from_value as f;
    Ok(match doc_type {
        DocumentType::Text => Meta::Text(f(v)?),
        DocumentType::CodeReference => Meta::CodeReference(f(v)?),
        DocumentType::CodeBlock => Meta::CodeBlock(f(v)?),
        DocumentType::FileEdit => Meta::FileEdit(f(v)?),
        DocumentType::ToolCall => Meta::ToolCall(f(v)?),
        DocumentType::TerminalCommand => Meta::TerminalCommand(f(v)?),
        DocumentType::Plan => Meta::Plan(f(v)?),
        DocumentType::Clarification => Meta::Clarification(f(v)?),
        DocumentType::Error => Meta::Error(f(v)?),
        DocumentType::TodoUpdate => Meta::TodoUpdate(f(v)?),
        DocumentType::Thinking => Meta::Thinking(f(v)?),
    })
}
