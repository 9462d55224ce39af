/// <reference lib="esnext.disposable" />
/* tslint:disable */
/* eslint-disable */
/**
 * A JSON Schema (as tools carry it); kept as plain JSON.
 */
export type JsonSchema = { [key: string]: unknown };

/**
 * A content block of an Anthropic/Cursor message (seed 002). Blocks of other types are
 * passed through or left out as each conversion says.
 */
export type AnthropicBlock =
| { type: "text"; text: string }
| { type: "thinking"; thinking: string; signature?: string }
| { type: "redacted_thinking"; data: string }
| { type: "tool_use"; id: string; name: string; input: unknown }
| { type: "tool_result"; tool_use_id: string; content: string | AnthropicBlock[]; is_error?: boolean }
| { type: string; [key: string]: unknown };

/** An Anthropic/Cursor message: a string, or content blocks. */
export interface AnthropicMessage {
    role: "user" | "assistant" | string;
    content: string | AnthropicBlock[];
    [key: string]: unknown;
}

/** A tool call of an OpenAI assistant message (arguments as a JSON string). */
export interface OpenAIToolCall {
    id: string;
    type: "function";
    function: { name: string; arguments: string };
}

/** An OpenAI Chat Completions message. */
export interface OpenAIMessage {
    role: "system" | "user" | "assistant" | "tool" | string;
    content: string | null | unknown[];
    reasoning_content?: string;
    tool_calls?: OpenAIToolCall[];
    tool_call_id?: string;
    [key: string]: unknown;
}

/** Anthropic's `tool_choice`. */
export type AnthropicToolChoice =
| { type: "auto" | "any" | "none" }
| { type: "tool"; name: string };

/** OpenAI's `tool_choice`. */
export type OpenAIToolChoice =
| "auto" | "required" | "none"
| { type: "function"; function: { name: string } };

/**
 * One Gemini stream event (`candidates` with `content.parts`, `finishReason`,
 * `usageMetadata`), or the same wrapped as `{ response: … }` (v1internal).
 */
export type GeminiEvent = { [key: string]: unknown };

/** An OpenAI `chat.completion.chunk`. */
export interface OpenAIChunk {
    id: string;
    object: "chat.completion.chunk";
    model: string;
    choices: {
        index: number;
        delta: {
            role?: "assistant";
            content?: string | null;
            reasoning_content?: string;
            tool_calls?: (OpenAIToolCall & { index: number })[];
        };
        finish_reason: "stop" | "length" | "tool_calls" | "content_filter" | null;
    }[];
    usage?: {
        prompt_tokens: number;
        completion_tokens: number;
        total_tokens: number;
        completion_tokens_details: { reasoning_tokens: number };
    };
}


/**
 * A tool definition in the flat Anthropic/Cursor form: `name`, `description`,
 * `input_schema`.
 */
export interface FlatTool {
    /**
     * The tool's name.
     */
    name: string;
    /**
     * What the tool does; absent when the caller gave none.
     */
    description?: string;
    /**
     * The JSON Schema of the tool's input.
     */
    input_schema?: JsonSchema;
}

/**
 * A tool definition in the nested OpenAI form: `{type: "function", function: {...}}`.
 */
export interface NestedTool {
    /**
     * Always `"function"`.
     */
    type: "function";
    /**
     * The function itself.
     */
    function: FunctionDef;
}

/**
 * The `function` part of a [`NestedTool`].
 */
export interface FunctionDef {
    /**
     * The tool's name.
     */
    name: string;
    /**
     * What the tool does; absent when the caller gave none.
     */
    description?: string;
    /**
     * The JSON Schema of the function's parameters.
     */
    parameters?: JsonSchema;
}

/**
 * What to do with one thinking block. Serialised as `{action: "thinking", signature}`,
 * `{action: "text"}` or `{action: "drop"}`.
 */
export type ThinkingCheck = { action: "thinking"; signature: string } | { action: "text" } | { action: "drop" };


/**
 * Gemini stream events to OpenAI `chat.completion.chunk`s, for one stream
 * (`new GeminiToOpenAI(id, model)` in JS).
 */
export class GeminiToOpenAI {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Converts one Gemini event (the JSON text of one SSE `data:` line, or the parsed
     * object; the `v1internal` `{response: …}` wrapper is accepted) into OpenAI chunks.
     */
    convert(event: string | GeminiEvent): OpenAIChunk[];
    /**
     * A converter whose chunks carry this `id` and `model`.
     */
    constructor(id: string, model: string);
    /**
     * The longest valid thought signature seen in this stream.
     */
    readonly longestSignature: string | undefined;
}

/**
 * The thinking-signature rules of one conversation: remembers the longest valid
 * signature seen and uses it to repair invalid ones (`new SignatureCache()` in JS).
 */
export class SignatureCache {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * What to do with one thinking block: keep it (with its own or a repaired
     * signature), send it as text, or drop it.
     */
    check(thinking: string, signature: string): ThinkingCheck;
    /**
     * An empty cache.
     */
    constructor();
    /**
     * Remembers `signature` when it is valid (at least 50 characters) and the longest.
     */
    observe(signature: string): void;
    /**
     * Applies [`check`](Self::check) to every `thinking` block of an Anthropic-style
     * history, in order, and returns the repaired history.
     */
    repairHistory(messages: AnthropicMessage[]): AnthropicMessage[];
    /**
     * The longest valid signature seen so far.
     */
    readonly longest: string | undefined;
}

/**
 * A JSON Schema cleaned for Gemini: `additionalProperties`, `$schema`, `title`,
 * `default` dropped, `type` upper-cased, `anyOf` narrowed to its first non-null branch.
 */
export function cleanSchemaForGemini(schema: JsonSchema): JsonSchema;

/**
 * Whether thinking must be off because the last assistant turn of an Anthropic-style
 * history used tools without thinking.
 */
export function historyDisablesThinking(messages: AnthropicMessage[]): boolean;

/**
 * OpenAI Chat Completions messages to Anthropic/Cursor messages (consecutive `tool`
 * messages become one `user` message of `tool_result` blocks).
 */
export function messagesToAnthropic(messages: OpenAIMessage[]): AnthropicMessage[];

/**
 * Anthropic/Cursor messages (`tool_use`, `tool_result`, `thinking` blocks) to OpenAI
 * Chat Completions messages (`tool_calls`, `tool` role, `reasoning_content`).
 */
export function messagesToOpenAI(messages: AnthropicMessage[]): OpenAIMessage[];

/**
 * Whether `model` can think (`-thinking` names, `gemini-3-pro`, every `claude-` model).
 */
export function modelSupportsThinking(model: string): boolean;

/**
 * Whether thinking is on by default for `model` (Opus 4.5, `-thinking` names).
 */
export function thinkingEnabledByDefault(model: string): boolean;

/**
 * An OpenAI `tool_choice` to the Anthropic one; `undefined` when it has no counterpart.
 */
export function toolChoiceToAnthropic(choice: OpenAIToolChoice): AnthropicToolChoice | undefined;

/**
 * An Anthropic `tool_choice` to the OpenAI one (`{type: "any"}` → `"required"` …);
 * `undefined` when it has no counterpart.
 */
export function toolChoiceToOpenAI(choice: AnthropicToolChoice): OpenAIToolChoice | undefined;

/**
 * Nested OpenAI tool definitions to the flat form.
 */
export function toolsToAnthropic(tools: NestedTool[]): FlatTool[];

/**
 * Flat tool definitions (`{name, description, input_schema}`) to the nested OpenAI form
 * (`{type: "function", function: {name, description, parameters}}`).
 */
export function toolsToOpenAI(tools: FlatTool[]): NestedTool[];

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_geminitoopenai_free: (a: number, b: number) => void;
    readonly __wbg_signaturecache_free: (a: number, b: number) => void;
    readonly cleanSchemaForGemini: (a: any) => [number, number, number];
    readonly geminitoopenai_convert: (a: number, b: any) => [number, number, number];
    readonly geminitoopenai_longestSignature: (a: number) => [number, number];
    readonly geminitoopenai_new: (a: number, b: number, c: number, d: number) => number;
    readonly historyDisablesThinking: (a: any) => [number, number, number];
    readonly messagesToAnthropic: (a: any) => [number, number, number];
    readonly messagesToOpenAI: (a: any) => [number, number, number];
    readonly modelSupportsThinking: (a: number, b: number) => number;
    readonly signaturecache_check: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
    readonly signaturecache_longest: (a: number) => [number, number];
    readonly signaturecache_new: () => number;
    readonly signaturecache_observe: (a: number, b: number, c: number) => void;
    readonly signaturecache_repairHistory: (a: number, b: any) => [number, number, number];
    readonly thinkingEnabledByDefault: (a: number, b: number) => number;
    readonly toolChoiceToAnthropic: (a: any) => [number, number, number];
    readonly toolChoiceToOpenAI: (a: any) => [number, number, number];
    readonly toolsToAnthropic: (a: any) => [number, number, number];
    readonly toolsToOpenAI: (a: any) => [number, number, number];
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
