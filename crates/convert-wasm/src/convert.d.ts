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
