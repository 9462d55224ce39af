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
