/* tslint:disable */
/* eslint-disable */
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
    content?: string;
    /**
     * What the format attaches to it.
     */
    attachments?: Attachment[];
    /**
     * ISO 8601 time, where the format carries one.
     */
    created?: string;
}

/**
 * How a text document's content is to be read.
 */
export type TextFormat = "markdown" | "plain";

/**
 * How far a tool-backed document got.
 */
export type CallStatus = "running" | "success" | "error" | "rejected";

/**
 * One clarifying question.
 */
export interface ClarificationQuestion {
    /**
     * Id reported with the choice.
     */
    id?: string;
    /**
     * The question.
     */
    text?: string;
    /**
     * The options offered.
     */
    options?: ClarificationOption[];
}

/**
 * One document of a response (seed 000 §3): its `type` decides its `metadata`.
 */
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

/** The document types (seed 000 §6, plus `thinking`). */
export type DocumentType =
| "text" | "code_reference" | "code_block" | "file_edit" | "tool_call"
| "terminal_command" | "plan" | "clarification" | "error" | "todo_update" | "thinking";

/** Options of `new DocStream(options)`. */
export interface DocStreamOptions {
    /** A format name (`cursor-stream-json` …), or `auto` (the default) to detect it. */
    format?: string;
    /** Size and depth limits; an event over a limit becomes an `error` document. */
    limits?: {
        /** Largest line, SSE event or JSON value in bytes (default 16 MiB). */
        maxEventBytes?: number;
        /** Deepest JSON nesting accepted (default and maximum 128). */
        maxDepth?: number;
    };
}


/**
 * One option of a clarifying question.
 */
export interface ClarificationOption {
    /**
     * Id reported when the option is picked.
     */
    id?: string;
    /**
     * What the user reads.
     */
    label?: string;
}

/**
 * One response: seed 000 §2's top-level object (`ChatResponse` in seed 000 §6; the
 * name also keeps it apart from fetch's `Response` in TypeScript).
 */
export interface ChatResponse {
    /**
     * Id of this response.
     */
    id?: string;
    /**
     * Id of the conversation (session).
     */
    conversationId?: string;
    /**
     * Model name as the format reports it.
     */
    model?: string;
    /**
     * `agent`, `plan`, `ask` or `debug`.
     */
    mode?: string;
    /**
     * ISO 8601 creation time, where the format carries one.
     */
    created?: string;
    /**
     * Progress.
     */
    status?: ResponseStatus;
    /**
     * The documents, in order.
     */
    documents?: Document[];
    /**
     * Token counts, where reported.
     */
    usage?: Usage;
    /**
     * Counts and timings.
     */
    metadata?: ResponseMetadata;
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
    status?: TodoStatus;
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
    content?: string;
    /**
     * Current status.
     */
    status?: TodoStatus;
    /**
     * Ids of the todos this one waits for.
     */
    dependencies?: string[];
}

/**
 * One turn of a conversation.
 */
export type Turn = ({ role: "user" } & UserTurn) | ({ role: "assistant" } & ChatResponse);

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
    toolCallCount?: number;
    /**
     * Model turns (steps of the agent loop): one, plus one for each return to the model
     * after tool results.
     */
    turnCount?: number;
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
    data?: unknown;
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
export type TodoStatus = "pending" | "in_progress" | "completed" | "cancelled";

/**
 * The old and new text of an edit.
 */
export interface Diff {
    /**
     * The text replaced.
     */
    oldString?: string;
    /**
     * The text put in its place.
     */
    newString?: string;
    /**
     * Line of the file where `oldString` starts (1-based).
     */
    startLine?: number;
    /**
     * Line where `oldString` ends.
     */
    endLine?: number;
}

/**
 * The operation of a `file_edit`.
 */
export type FileOperation = "create" | "edit" | "delete" | "rename";

/**
 * The whole state: every turn of the conversation.
 */
export interface Conversation {
    /**
     * The wire format read (`cursor-stream-json` …), once detected.
     */
    format?: string;
    /**
     * Turns in order.
     */
    turns: Turn[];
    /**
     * Counters.
     */
    stats: Stats;
}

/**
 * Token counts (seed 000 `UsageInfo`, plus the cache counts the providers report).
 */
export interface Usage {
    /**
     * Input tokens.
     */
    promptTokens?: number;
    /**
     * Output tokens.
     */
    completionTokens?: number;
    /**
     * Their sum, or what the format reports.
     */
    totalTokens?: number;
    /**
     * Input tokens read from a cache (addition).
     */
    cacheReadTokens?: number;
    /**
     * Input tokens written to a cache (addition).
     */
    cacheWriteTokens?: number;
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
}

/**
 * `clarification` metadata.
 */
export interface ClarificationMeta {
    /**
     * The questions asked.
     */
    questions?: ClarificationQuestion[];
}

/**
 * `code_block` metadata.
 */
export interface CodeBlockMeta {
    /**
     * The fence's language tag.
     */
    language?: string;
    /**
     * `new_code`, `example` or `suggestion`.
     */
    purpose?: string;
}

/**
 * `code_reference` metadata.
 */
export interface CodeReferenceMeta {
    /**
     * Path of the quoted file.
     */
    filePath?: string;
    /**
     * First quoted line (1-based).
     */
    startLine?: number;
    /**
     * Last quoted line.
     */
    endLine?: number;
    /**
     * Language, from the file's extension where the stream does not say.
     */
    language?: string;
}

/**
 * `error` metadata.
 */
export interface ErrorMeta {
    /**
     * A stable code (`FILE_NOT_FOUND`, `MALFORMED_JSON`, `STREAM_CUT_OFF` …).
     */
    errorCode?: string;
    /**
     * What failed: a tool name, `stream`, `model` ….
     */
    source?: string;
    /**
     * Where and why, for a person.
     */
    details?: string;
}

/**
 * `file_edit` metadata.
 */
export interface FileEditMeta {
    /**
     * Path of the file.
     */
    filePath?: string;
    /**
     * What was done to it.
     */
    operation?: FileOperation;
    /**
     * Language, from the extension.
     */
    language?: string;
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
 * `plan` metadata.
 */
export interface PlanMeta {
    /**
     * The plan's title.
     */
    title?: string;
    /**
     * A summary (Markdown).
     */
    overview?: string;
    /**
     * The todos, as written.
     */
    todos?: PlanTodo[];
    /**
     * Always `markdown`.
     */
    format?: string;
    /**
     * Id of the tool call that wrote the plan (addition).
     */
    toolCallId?: string;
}

/**
 * `terminal_command` metadata.
 */
export interface TerminalMeta {
    /**
     * The command line.
     */
    command?: string;
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
    output?: string;
    /**
     * How long it ran.
     */
    duration_ms?: number;
    /**
     * Permissions the command asked for.
     */
    permissions?: string[];
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
}

/**
 * `text` metadata.
 */
export interface TextMeta {
    /**
     * `markdown` or `plain`.
     */
    format?: TextFormat;
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
    todos?: TodoChange[];
    /**
     * True when the update merges into the list; false when it replaces it (addition).
     */
    merge?: boolean;
    /**
     * Id of the tool call (addition).
     */
    toolCallId?: string;
}

/**
 * `tool_call` metadata.
 */
export interface ToolCallMeta {
    /**
     * The tool's name as the format spells it.
     */
    toolName?: string;
    /**
     * Id pairing start and result.
     */
    toolCallId?: string;
    /**
     * Arguments, kept whole.
     */
    arguments?: unknown;
    /**
     * The result; absent while the call runs.
     */
    result?: ToolResult;
    /**
     * How long the call took.
     */
    duration_ms?: number;
}


/**
 * A live conversation read from a byte stream (`new DocStream(options)` in JS).
 */
export class DocStream {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Ends the stream; a response without its final event is marked cut off.
     */
    finish(): void;
    /**
     * `new DocStream({ format?, limits?: { maxEventBytes?, maxDepth? } })`.
     */
    constructor(options?: DocStreamOptions);
    /**
     * Reads a chunk: a `Uint8Array`, an `ArrayBuffer` or a string.
     */
    push(chunk: Uint8Array | ArrayBuffer | string): void;
    /**
     * The conversation as plain objects (turns; responses in seed 000's shape).
     */
    snapshot(): Conversation;
    /**
     * The detected or named format, once known.
     */
    readonly format: string | undefined;
}

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_docstream_free: (a: number, b: number) => void;
    readonly docstream_finish: (a: number) => [number, number];
    readonly docstream_format: (a: number) => [number, number];
    readonly docstream_new: (a: number) => [number, number, number];
    readonly docstream_push: (a: number, b: any) => [number, number];
    readonly docstream_snapshot: (a: number) => [number, number, number];
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
