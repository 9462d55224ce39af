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
