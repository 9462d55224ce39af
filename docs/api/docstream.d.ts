/// <reference lib="esnext.disposable" />
/* tslint:disable */
/* eslint-disable */
/**
 * A language of the labels.
 */
export type Locale = "en" | "de";

/**
 * A part of a document's element.
 */
export type Part = "head" | "blocks" | "tail" | "lines" | "open" | "status" | "body" | "args" | "result";

/**
 * A problem of the plan's dependency graph.
 */
export type PlanProblem = { kind: "unknown_dependency"; todo: string; dependency: string } | { kind: "cycle"; todo: string };

/**
 * A problem with the input that lost nothing but is worth saying: skipped lines,
 * invalid UTF-8, unknown values. Where it was is given as a line and a byte offset
 * where the framing knows them.
 */
export interface Problem {
    /**
     * `SKIPPED_LINES`, `INVALID_UTF8` or `UNKNOWN_VALUE`.
     */
    code: string;
    /**
     * What and where, for a person.
     */
    message: string;
    /**
     * 1-based line (NDJSON line, SSE line), where known.
     */
    line?: number;
    /**
     * Byte offset in the stream, where known.
     */
    offset?: number;
}

/**
 * A run of changed lines with their context.
 */
export interface Hunk {
    /**
     * First old line of the hunk.
     */
    oldStart: number;
    /**
     * Old lines in the hunk.
     */
    oldLen: number;
    /**
     * First new line of the hunk.
     */
    newStart: number;
    /**
     * New lines in the hunk.
     */
    newLen: number;
    /**
     * Unchanged lines folded away before this hunk.
     */
    foldedBefore: number;
    /**
     * The lines.
     */
    lines: DiffLine[];
}

/**
 * A turn of a branch the user rewound from (Claude Code's `parentUuid` tree): the
 * conversation went on from an earlier point, as if it had not been (addition).
 */
export interface Rewound {
    /**
     * Index of the turn that replaced the branch: the first of the branch taken instead.
     */
    replacedBy: number;
    /**
     * True for the first turn of the abandoned branch, where it forked off.
     */
    fork: boolean;
}

/**
 * A user turn: the prompt and its attachments.
 */
export interface UserTurn {
    /**
     * Id of the turn.
     */
    id: string;
    /**
     * The prompt text.
     */
    content: string;
    /**
     * What the format attaches to it.
     */
    attachments?: Attachment[];
    /**
     * ISO 8601 time, where the format carries one.
     */
    created?: string;
    /**
     * Who wrote the prompt when it was not the person who ran the agent: a
     * sub-agent's prompt is written by the agent that started it. Absent: the person.
     */
    from?: PromptFrom;
    /**
     * Set when this turn is not a prompt but the point where the agent's context was
     * compacted; `content` is then the summary that replaced the context (Claude Code's
     * `compact_boundary` and `isCompactSummary` lines, Codex's `compacted` record).
     */
    compaction?: Compaction;
    /**
     * Set when the user rewound the conversation to before this turn (see
     * [`ChatResponse::rewound`]).
     */
    rewound?: Rewound;
}

/**
 * Attributes an element built in a part may be given (the `set_attr` patch); their
 * values come from the renderer (a link's target only after the URL policy allowed it).
 */
export type Attr = "class" | "href" | "rel" | "data-ln";

/**
 * How a text document's content is to be read.
 */
export type TextFormat = "markdown" | "plain" | "json";

/**
 * How far a tool-backed document got.
 */
export type CallStatus = "running" | "success" | "error" | "rejected" | "no_result" | "denied" | "interrupted";

/**
 * One change to the rendered page.
 */
export type Patch = { op: "insert_turn"; turn: number; html: string } | { op: "replace_turn_header"; turn: number; html: string } | { op: "insert_document"; turn: number; index: number; html: string } | { op: "replace_document"; turn: number; index: number; html: string } | { op: "append_part"; turn: number; index: number; part: Part; html: string } | { op: "replace_part"; turn: number; index: number; part: Part; html: string } | { op: "open_element"; turn: number; index: number; part: Part; tag: Tag } | { op: "set_attr"; turn: number; index: number; part: Part; attr: Attr; value: string } | { op: "append_text"; turn: number; index: number; part: Part; text: string } | { op: "close_element"; turn: number; index: number; part: Part };

/**
 * One clarifying question.
 */
export interface ClarificationQuestion {
    /**
     * Id reported with the choice.
     */
    id: string;
    /**
     * The question.
     */
    text: string;
    /**
     * The options offered.
     */
    options: ClarificationOption[];
}

/**
 * One line of a hunk.
 */
export interface DiffLine {
    /**
     * Added, removed or unchanged.
     */
    kind: LineKind;
    /**
     * Line number in the old text (absent for added lines).
     */
    oldLine: number | undefined;
    /**
     * Line number in the new text (absent for removed lines).
     */
    newLine: number | undefined;
    /**
     * The line, without its line break.
     */
    text: string;
    /**
     * Byte ranges of `text` that changed (words marked inside changed lines).
     */
    changed: [number, number][];
}

/**
 * One option of a clarifying question.
 */
export interface ClarificationOption {
    /**
     * Id reported when the option is picked.
     */
    id: string;
    /**
     * What the user reads.
     */
    label: string;
}

/**
 * One response: seed 000 §2's top-level object (`ChatResponse` in seed 000 §6; the
 * name also keeps it apart from fetch's `Response` in TypeScript).
 */
export interface ChatResponse {
    /**
     * Id of this response.
     */
    id: string;
    /**
     * Id of the conversation (session).
     */
    conversationId: string;
    /**
     * Model name as the format reports it.
     */
    model: string;
    /**
     * `agent`, `plan`, `ask` or `debug`.
     */
    mode: string;
    /**
     * ISO 8601 creation time, where the format carries one.
     */
    created?: string;
    /**
     * Progress.
     */
    status: ResponseStatus;
    /**
     * The documents, in order.
     */
    documents: Document[];
    /**
     * Token counts, where reported.
     */
    usage?: Usage;
    /**
     * Counts and timings.
     */
    metadata: ResponseMetadata;
    /**
     * For a sub-agent's run: the tool call that started it, in an earlier turn
     * (addition). Only docstream links runs: a saved value is not read back.
     */
    parent?: ParentCall;
    /**
     * Set when the user rewound the conversation to before this turn (or a retry
     * branched off before it): what the agent did next never saw it (addition). Only
     * docstream marks rewinds: a saved value is not read back.
     */
    rewound?: Rewound;
}

/**
 * One status change of a `todo_update`.
 */
export interface TodoChange {
    /**
     * The todo's id.
     */
    id: string;
    /**
     * Its new status.
     */
    status: TodoStatus;
    /**
     * Its text, where the update carries it (addition: a todo list written without a
     * plan still shows as a checklist).
     */
    content?: string;
}

/**
 * One todo of a plan.
 */
export interface PlanTodo {
    /**
     * Id that dependencies and updates refer to.
     */
    id: string;
    /**
     * What is to be done.
     */
    content: string;
    /**
     * Current status.
     */
    status: TodoStatus;
    /**
     * Ids of the todos this one waits for.
     */
    dependencies: string[];
}

/**
 * One todo of the plan view.
 */
export interface PlanItem {
    /**
     * The todo's id.
     */
    id: string;
    /**
     * Its text.
     */
    content: string;
    /**
     * Its status, after the updates.
     */
    status: TodoStatus;
    /**
     * The ids it waits for.
     */
    dependencies: string[];
    /**
     * Depth in the dependency graph (0: waits for nothing).
     */
    level: number;
}

/**
 * One turn of a conversation.
 */
export type Turn = ({ role: "user" } & UserTurn) | ({ role: "assistant" } & ChatResponse);

/**
 * Options of `new DocStream(options)`.
 */
export interface DocStreamOptions {
    /**
     * A format name, or `auto` (the default) to detect the format from the first bytes.
     */
    format?: Format | "auto";
    /**
     * Images: none load unless their origin is allowed here.
     */
    images?: ImageOptions;
    /**
     * Language of the labels in `html()`, the patches and `text()` (default `en`).
     */
    locale?: Locale;
    /**
     * Which diff view a file edit shows: `unified`, `split` (side by side), or `both`
     * (the default: both are in the HTML and the stylesheet shows the unified one).
     */
    diff?: DiffOption;
    /**
     * Size and depth limits; an event over a limit becomes an `error` document.
     */
    limits?: LimitOptions;
    /**
     * A price table: per model id, US dollars per million tokens. A model is matched by
     * exact id, then by the longest id that is a prefix of it. A response whose source
     * states no cost shows one computed from it, marked as computed; none is built in.
     */
    prices?: Record<string, { input: number; output: number; cacheRead?: number; cacheWrite?: number; reasoning?: number }>;
}

/**
 * Progress of a response.
 */
export type ResponseStatus = "streaming" | "completed" | "error";

/**
 * Response metadata (seed 000 `ResponseMetadata`, plus what the formats add).
 */
export interface ResponseMetadata {
    /**
     * Wall time of the response, as the format reports it.
     */
    duration_ms?: number;
    /**
     * Tool-backed documents in the response.
     */
    toolCallCount: number;
    /**
     * Model turns (steps of the agent loop): one, plus one for each return to the model
     * after tool results.
     */
    turnCount: number;
    /**
     * API time, where reported (addition).
     */
    duration_api_ms?: number;
    /**
     * Why the model stopped, where reported (addition).
     */
    stopReason?: string;
    /**
     * Request id, where reported (addition).
     */
    requestId?: string;
    /**
     * Working directory of the agent, where reported (addition).
     */
    cwd?: string;
    /**
     * What the response cost in US dollars, where the format states it (Claude Code's
     * `total_cost_usd`) (addition).
     */
    costUsd?: number;
}

/**
 * Result of a tool call.
 */
export interface ToolResult {
    /**
     * `success`, `error` or `rejected`.
     */
    status: CallStatus;
    /**
     * What the tool returned, kept whole.
     */
    data: unknown;
}

/**
 * Something the user attached to a prompt: a file, a selection, an image.
 */
export interface Attachment {
    /**
     * `file`, `selection`, `image`, `document` ….
     */
    kind: string;
    /**
     * Path or name, where known.
     */
    path?: string;
    /**
     * First line of a selection.
     */
    startLine?: number;
    /**
     * Last line of a selection.
     */
    endLine?: number;
    /**
     * The attached text, where the format carries it.
     */
    text?: string;
}

/**
 * Status of a todo.
 */
export type TodoStatus = "pending" | "in_progress" | "completed" | "cancelled" | "unknown";

/**
 * Tags an element built in a part may have (the `open_element` patch): the Markdown
 * preview's elements and a code line.
 */
export type Tag = "p" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "ul" | "ol" | "li" | "blockquote" | "pre" | "code" | "strong" | "em" | "del" | "a" | "span" | "table" | "thead" | "tbody" | "tr" | "th" | "td" | "hr";

/**
 * The agent's context was compacted here: what came before was replaced, for the
 * model, by a summary (the turn's `content`) (addition).
 */
export interface Compaction {
    /**
     * What started it, as the source says: `auto` (the context was full) or `manual`
     * (the user asked, `/compact`).
     */
    trigger?: string;
    /**
     * Tokens in the context before.
     */
    preTokens?: number;
    /**
     * Tokens in the context after.
     */
    postTokens?: number;
}

/**
 * The diff view of a file edit.
 */
export interface DiffView {
    /**
     * Path of the file.
     */
    path: string;
    /**
     * The new path of a rename.
     */
    newPath: string | undefined;
    /**
     * What was done to the file.
     */
    operation: FileOperation;
    /**
     * Lines added.
     */
    added: number;
    /**
     * Lines removed.
     */
    removed: number;
    /**
     * The hunks.
     */
    hunks: Hunk[];
    /**
     * Unchanged lines folded away after the last hunk.
     */
    foldedAfter: number;
}

/**
 * The formats docstream reads. Serialised as its [`name`](Format::name) (the names
 * are the variants in kebab case; a test keeps the two equal).
 */
export type Format = "document-sse" | "response-json" | "cursor-stream-json" | "cursor-json" | "cursor-wrapper" | "anthropic-messages" | "anthropic-stream" | "openai-messages" | "openai-stream" | "gemini-stream" | "claude-code-stream-json" | "claude-code-transcript" | "cursor-store" | "codex-exec-json" | "codex-session" | "gemini-cli-stream-json" | "gemini-cli-json" | "openai-responses-stream" | "openai-responses" | "ai-sdk-ui-stream" | "agent-client-protocol" | "gemini-cli-chat" | "copilot-cli-events" | "cursor-agent-transcript" | "opencode-run-json" | "opencode-export";

/**
 * The kind of a diff line.
 */
export type LineKind = "context" | "added" | "removed";

/**
 * The kind of a tool, across the formats' names for it (each format's names are in
 * its own module; the normaliser's `tools` module holds the names any application
 * may use). The first seven become documents of their own type (`file_edit`,
 * `terminal_command`, `plan`, `todo_update`); the rest are `tool_call` documents that
 * the renderers show in a view of their kind.
 */
export type ToolKind = "edit" | "write" | "delete" | "patch" | "shell" | "plan" | "todo" | "read" | "grep" | "glob" | "list" | "codebase_search" | "web_search" | "web_fetch" | "mcp" | "task" | "other";

/**
 * The old and new text of an edit.
 */
export interface Diff {
    /**
     * The text replaced.
     */
    oldString: string;
    /**
     * The text put in its place.
     */
    newString: string;
    /**
     * Line of the file where `oldString` starts (1-based).
     */
    startLine: number;
    /**
     * Line where `oldString` ends.
     */
    endLine: number;
}

/**
 * The operation of a `file_edit`.
 */
export type FileOperation = "create" | "edit" | "delete" | "rename";

/**
 * The plan view object.
 */
export interface PlanView {
    /**
     * The plan's title.
     */
    title: string;
    /**
     * The overview (Markdown).
     */
    overview: string;
    /**
     * Todos in dependency order (stable: written order among the ready ones).
     */
    todos: PlanItem[];
    /**
     * Todos completed.
     */
    done: number;
    /**
     * All todos.
     */
    total: number;
    /**
     * Problems found.
     */
    problems: PlanProblem[];
}

/**
 * The sub-agent a tool call started (addition): its run is a response of its own,
 * `conversation.turns[turn]`, whose `parent` names this call.
 */
export interface Subagent {
    /**
     * What it was asked to do, in a few words (the call's `description`).
     */
    description: string;
    /**
     * The kind of agent (`subagent_type`), where the call names one.
     */
    agentType?: string;
    /**
     * Index of the turn that holds the sub-agent's run, once its first message came.
     * Only docstream links runs: a saved value is not read back.
     */
    turn?: number;
}

/**
 * The tool call that started a sub-agent's run (addition).
 */
export interface ParentCall {
    /**
     * Index of the turn holding the call.
     */
    turn: number;
    /**
     * Index of the call's document in that turn's response.
     */
    index: number;
    /**
     * The call's document id.
     */
    documentId: string;
    /**
     * The call's tool call id.
     */
    toolCallId: string;
    /**
     * What the call asked the sub-agent to do, in a few words.
     */
    description: string;
    /**
     * The kind of agent, where the call names one.
     */
    agentType?: string;
}

/**
 * The user's answer to a plan put to them (addition).
 */
export interface PlanApproval {
    /**
     * Approved or rejected.
     */
    status: ApprovalStatus;
    /**
     * What the user said with their answer, where they said something.
     */
    feedback?: string;
}

/**
 * The whole state: every turn of the conversation.
 */
export interface Conversation {
    /**
     * The wire format read (`cursor-stream-json` …), once detected.
     */
    format?: string;
    /**
     * What the conversation is called where the source says (Claude Code's
     * `custom-title` or `summary` line) (addition).
     */
    title?: string;
    /**
     * Turns in order.
     */
    turns: Turn[];
    /**
     * Counters.
     */
    stats: Stats;
    /**
     * Problems with the input that lost nothing (the first [`Problem::MAX_LISTED`]).
     */
    problems?: Problem[];
}

/**
 * Token counts (seed 000 `UsageInfo`, plus the cache counts the providers report).
 */
export interface Usage {
    /**
     * Input tokens.
     */
    promptTokens: number;
    /**
     * Output tokens.
     */
    completionTokens: number;
    /**
     * Their sum, or what the format reports.
     */
    totalTokens: number;
    /**
     * Input tokens read from a cache (addition).
     */
    cacheReadTokens?: number;
    /**
     * Input tokens written to a cache (addition).
     */
    cacheWriteTokens?: number;
    /**
     * Output tokens spent reasoning, counted within `completion_tokens` (addition):
     * where the source counts them apart.
     */
    reasoningTokens?: number;
}

/**
 * What the stream held that docstream did not understand, and how much it read.
 */
export interface Stats {
    /**
     * Events (lines, SSE events, values) read.
     */
    events: number;
    /**
     * Events of a type not understood, ignored.
     */
    unknownEvents: number;
    /**
     * Events that became `error` documents (malformed, oversized, too deep).
     */
    badEvents: number;
    /**
     * Lines before the stream that were in no format (a wrapper's banner, a shell's
     * warning) and were skipped while the format was detected.
     */
    skippedLines?: number;
    /**
     * Invalid UTF-8 sequences, each shown as U+FFFD.
     */
    invalidUtf8?: number;
    /**
     * Values of a saved response docstream does not know (a new todo status, a new
     * document type), kept as `unknown` statuses and generic documents.
     */
    unknownValues?: number;
}

/**
 * Whether the user approved a plan.
 */
export type ApprovalStatus = "approved" | "rejected" | "unknown";

/**
 * Which diff view(s) a `file_edit` shows.
 */
export type DiffMode = "both" | "unified" | "side_by_side";

/**
 * Who wrote a prompt other than the person who ran the agent.
 */
export type PromptFrom = "parent_agent";

/**
 * `clarification` metadata.
 */
export interface ClarificationMeta {
    /**
     * The questions asked.
     */
    questions: ClarificationQuestion[];
}

/**
 * `code_block` metadata.
 */
export interface CodeBlockMeta {
    /**
     * The fence's language tag.
     */
    language: string;
    /**
     * `new_code`, `example` or `suggestion`.
     */
    purpose: string;
}

/**
 * `code_reference` metadata.
 */
export interface CodeReferenceMeta {
    /**
     * Path of the quoted file.
     */
    filePath: string;
    /**
     * First quoted line (1-based).
     */
    startLine: number;
    /**
     * Last quoted line.
     */
    endLine: number;
    /**
     * Language, from the file's extension where the stream does not say.
     */
    language: string;
}

/**
 * `diff` of `DocStreamOptions`.
 */
export type DiffOption = "unified" | "split" | "both";

/**
 * `error` metadata.
 */
export interface ErrorMeta {
    /**
     * A stable code (`FILE_NOT_FOUND`, `MALFORMED_JSON`, `STREAM_CUT_OFF` …).
     */
    errorCode: string;
    /**
     * What failed: a tool name, `stream`, `model` ….
     */
    source: string;
    /**
     * Where and why, for a person.
     */
    details: string;
}

/**
 * `file_edit` metadata.
 */
export interface FileEditMeta {
    /**
     * Path of the file.
     */
    filePath: string;
    /**
     * What was done to it.
     */
    operation: FileOperation;
    /**
     * Language, from the extension.
     */
    language: string;
    /**
     * Old and new text, where both are known.
     */
    diff?: Diff;
    /**
     * A unified diff, where that is what the format gives (addition).
     */
    diffString?: string;
    /**
     * The new path of a `rename` (addition).
     */
    newPath?: string;
    /**
     * Lines added, as the tool reported (addition).
     */
    linesAdded?: number;
    /**
     * Lines removed, as the tool reported (addition).
     */
    linesRemoved?: number;
    /**
     * Name of the tool that made the edit (addition).
     */
    toolName?: string;
    /**
     * Id of the tool call that made the edit (addition).
     */
    toolCallId?: string;
    /**
     * Progress of that call (addition).
     */
    status?: CallStatus;
    /**
     * The tool's error message when the edit failed (addition).
     */
    error?: string;
}

/**
 * `images` of `DocStreamOptions`.
 */
export interface ImageOptions {
    /**
     * Origins (`https://host[:port]`) whose images may load; none by default.
     */
    allow?: string[];
}

/**
 * `limits` of `DocStreamOptions`.
 */
export interface LimitOptions {
    /**
     * Largest line, SSE event or JSON value in bytes (default 16 MiB).
     */
    maxEventBytes?: number;
    /**
     * Deepest JSON nesting accepted (default and maximum 128).
     */
    maxDepth?: number;
}

/**
 * `plan` metadata.
 */
export interface PlanMeta {
    /**
     * The plan's title.
     */
    title: string;
    /**
     * A summary (Markdown).
     */
    overview: string;
    /**
     * The todos, as written.
     */
    todos: PlanTodo[];
    /**
     * Always `markdown`.
     */
    format: string;
    /**
     * Id of the tool call that wrote the plan (addition).
     */
    toolCallId?: string;
    /**
     * What the user decided, for a plan put to them for approval (Claude Code's
     * `ExitPlanMode`, Cursor's plan request), once they have (addition).
     */
    approval?: PlanApproval;
}

/**
 * `terminal_command` metadata.
 */
export interface TerminalMeta {
    /**
     * The command line.
     */
    command: string;
    /**
     * Where it ran.
     */
    workingDirectory?: string;
    /**
     * Exit code; absent while it runs or when the tool did not say.
     */
    exitCode?: number;
    /**
     * Output (stdout, then stderr where the tool separates them).
     */
    output: string;
    /**
     * How long it ran.
     */
    duration_ms?: number;
    /**
     * Permissions the command asked for.
     */
    permissions: string[];
    /**
     * Id of the tool call (addition).
     */
    toolCallId?: string;
    /**
     * Progress of the call (addition).
     */
    status?: CallStatus;
    /**
     * Run in the background (addition).
     */
    isBackground?: boolean;
    /**
     * Why the command did not run or was stopped, as the tool said it (a permission
     * rule, the user's answer), for a `denied`, `rejected` or `interrupted` call
     * (addition).
     */
    reason?: string;
}

/**
 * `text` metadata.
 */
export interface TextMeta {
    /**
     * `markdown` or `plain`.
     */
    format: TextFormat;
}

/**
 * `thinking` metadata (addition).
 */
export interface ThinkingMeta {
    /**
     * The provider's signature over the reasoning, where it sends one.
     */
    signature?: string;
    /**
     * True when the provider withheld the text.
     */
    redacted?: boolean;
    /**
     * How long the model thought, where the format says.
     */
    duration_ms?: number;
}

/**
 * `todo_update` metadata.
 */
export interface TodoUpdateMeta {
    /**
     * The changes.
     */
    todos: TodoChange[];
    /**
     * True when the update merges into the list; false when it replaces it (addition).
     */
    merge?: boolean;
    /**
     * Id of the tool call (addition).
     */
    toolCallId?: string;
    /**
     * The whole list after a merging update (`merge: true`) applied to the list before
     * it in the same session, in order; empty when the update is the whole list
     * (addition).
     */
    mergedTodos?: TodoChange[];
}

/**
 * `tool_call` metadata.
 */
export interface ToolCallMeta {
    /**
     * The tool's name as the format spells it.
     */
    toolName: string;
    /**
     * Id pairing start and result.
     */
    toolCallId: string;
    /**
     * Arguments, kept whole.
     */
    arguments: unknown;
    /**
     * The result; absent while the call runs.
     */
    result?: ToolResult;
    /**
     * How long the call took.
     */
    duration_ms?: number;
    /**
     * `no_result` when the call's turn or the stream ended before its result came;
     * otherwise absent and the status follows the result (addition).
     */
    status?: CallStatus;
    /**
     * Set on a call that starts a sub-agent (Claude Code's `Task` or `Agent`, Cursor's
     * `taskToolCall`): what it was asked, and where its run is (addition).
     */
    subagent?: Subagent;
    /**
     * What kind of tool it is, as the call's format names it (addition): `read`,
     * `grep`, `web_fetch` … or `other`. Absent from a response saved by an earlier
     * version (and kept absent: a saved response round-trips unchanged); the
     * normaliser then looks the name up in the tables of the format being read.
     */
    toolKind?: ToolKind;
}

/** One document of a response (seed 000 §3): its `type` decides its `metadata`. */
export type Document =
| DocumentOf<"text", TextMeta>
| DocumentOf<"code_reference", CodeReferenceMeta>
| DocumentOf<"code_block", CodeBlockMeta>
| DocumentOf<"file_edit", FileEditMeta>
| DocumentOf<"tool_call", ToolCallMeta>
| DocumentOf<"terminal_command", TerminalMeta>
| DocumentOf<"plan", PlanMeta>
| DocumentOf<"clarification", ClarificationMeta>
| DocumentOf<"error", ErrorMeta>
| DocumentOf<"todo_update", TodoUpdateMeta>
| DocumentOf<"thinking", ThinkingMeta>;

/** The document types (seed 000 §6, plus `thinking`). */
export type DocumentType =
| "text"
| "code_reference"
| "code_block"
| "file_edit"
| "tool_call"
| "terminal_command"
| "plan"
| "clarification"
| "error"
| "todo_update"
| "thinking";


/** The fields every document has. */
export interface DocumentOf<T extends DocumentType, M> {
    /** Unique within the response (`doc_001` …). */
    id: string;
    /** The document type. */
    type: T;
    /** Position in the response, from 1. */
    sequence: number;
    /** The text, or `null` for documents whose content is all metadata. */
    content: string | null;
    /** Type-specific metadata. */
    metadata: M;
}


export interface DocStream {
    /**
     * Reads a chunk (a `Uint8Array`, an `ArrayBuffer` or a string, cut anywhere) and
     * returns the patches that bring the page up to date (none while the chunk ends no
     * line). Throws an `Error` with code `DS_FINISHED` after `finish()`, `DS_BAD_CHUNK`
     * for any other type of chunk.
     */
    push(chunk: Uint8Array | ArrayBuffer | string): Patch[];
    /**
     * Ends the stream (a response without its final event is marked cut off) and
     * returns the last patches. Throws an `Error` with code `DS_FINISHED` when called
     * twice.
     */
    finish(): Patch[];
}



/**
 * A live conversation read from a byte stream, and its rendered page
 * (`new DocStream(options)` in JS).
 *
 * Two ways to use it:
 * - `push(chunk)` and `finish()` return the patches as objects: simple (JavaScript on
 *   the form below, src/wasm/push.js);
 * - `write(chunk)` only reads (it returns whether there is something new to show),
 *   `end()` ends the stream, and `pull()` hands out every patch since the last pull as
 *   one string in the wire form (`applyPatches` of `docstream/apply` applies it): one
 *   crossing of the boundary per frame, however many chunks arrived.
 */
export class DocStream {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Gives the stream a sub-agent's own transcript from beside the session (Claude
     * Code 2.1+: `<session>/subagents/agent-<agentId>.jsonl`, `agentId` from its file
     * name): it is shown as the run of the call whose result names that agent. Call it
     * before writing the session; other formats ignore it.
     */
    addSubagent(agent_id: string, transcript: Uint8Array | number[]): void;
    /**
     * The diff view of the `file_edit` document with this id, or `undefined`.
     */
    diffView(id: string): DiffView | undefined;
    /**
     * Ends the stream without rendering (see `finish`); the last patches come from
     * `pull()`. Throws an `Error` with code `DS_FINISHED` when the stream already ended.
     */
    end(): void;
    /**
     * The conversation element's HTML, rendered from the state at once: at any moment
     * what applying every patch of the state so far gives (an open Markdown block as
     * its preview shows it, an unclosed `**` already bold).
     *
     * Handed over in pieces joined by JavaScript (a rope, no copy), so the page never
     * has to fit in WebAssembly memory beside the conversation.
     */
    html(): string;
    /**
     * The conversation as GitHub-flavoured Markdown, as `docstream md` writes it
     * (turns with role and time, prose as written, code and diffs fenced, tool calls,
     * thinking and sub-agents folded in `<details>`, usage at the end), in `locale`;
     * with `turn` (an index of `snapshot().turns`), that turn alone, with the sub-agent
     * runs inside its calls: what the element's "Copy as Markdown" copies (`""` past
     * the end).
     */
    markdown(turn?: number | null): string;
    /**
     * `new DocStream({ format?, images?, locale?, diff?, limits? })`. Throws an `Error`
     * with code `DS_BAD_OPTIONS` or `DS_UNKNOWN_FORMAT` for options it cannot honour.
     */
    constructor(options?: DocStreamOptions);
    /**
     * The plan view of the `plan` document with this id, or `undefined`.
     */
    planView(id: string): PlanView | undefined;
    /**
     * Marks the prompts of the stream as its parent agent's (a sub-agent's transcript
     * read on its own, as the viewer's library opens one), where the format does not
     * say who wrote them. Call it before writing. The full module's only: the element's
     * default module never reads a library entry.
     */
    promptsFromParentAgent(): void;
    /**
     * Every patch since the last pull, as one string in the wire form (empty when
     * nothing changed); apply it with `applyPatches` of `docstream/apply`.
     */
    pull(): string;
    /**
     * The conversation as plain objects (turns; responses in seed 000's shape).
     */
    snapshot(): Conversation;
    /**
     * One progress line per agent action (seed 001's `text` format), in `locale`.
     */
    text(): string;
    /**
     * `write` for a chunk of text.
     */
    writeText(chunk: string): boolean;
    /**
     * Reads a chunk of bytes without rendering anything; returns `true` when there is
     * something new for `pull()`. Throws an `Error` with code `DS_FINISHED` after the
     * stream ended.
     */
    write(chunk: Uint8Array | number[]): boolean;
    /**
     * The detected or named format, once known.
     */
    readonly format: Format | undefined;
}

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __markdownOf: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly __pageOf: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number, number];
    readonly __wbg_docstream_free: (a: number, b: number) => void;
    readonly docstream___detection: (a: number) => number;
    readonly docstream___endMissing: (a: number, b: number, c: number) => [number, number];
    readonly docstream___missingFormat: (a: number) => [number, number];
    readonly docstream___snapshotJson: (a: number) => [number, number, number, number];
    readonly docstream___stage: (a: number, b: number) => number;
    readonly docstream___takeError: (a: number) => any;
    readonly docstream___writeStaged: (a: number, b: number) => number;
    readonly docstream_addSubagent: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly docstream_diffView: (a: number, b: number, c: number) => [number, number, number];
    readonly docstream_end: (a: number) => [number, number];
    readonly docstream_format: (a: number) => [number, number];
    readonly docstream_html: (a: number) => any;
    readonly docstream_markdown: (a: number, b: number) => [number, number];
    readonly docstream_new: (a: number) => [number, number, number];
    readonly docstream_planView: (a: number, b: number, c: number) => [number, number, number];
    readonly docstream_promptsFromParentAgent: (a: number) => void;
    readonly docstream_pull: (a: number) => any;
    readonly docstream_snapshot: (a: number) => [number, number, number];
    readonly docstream_text: (a: number) => [number, number];
    readonly docstream_write: (a: number, b: number, c: number) => [number, number, number];
    readonly docstream_writeText: (a: number, b: number, c: number) => [number, number, number];
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
