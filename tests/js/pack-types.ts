// Type-checked (not run) by pack-test.mjs inside the temp project that installed the
// packed tarball, with `strict` and without skipLibCheck: the package's declarations
// compile, resolve through `exports`, and describe the API as the tests use it.
import init, {
  DocStream,
  type Conversation,
  type DiffView,
  type DocStreamOptions,
  type Document,
  type Format,
  type Patch,
  type PlanView,
} from "docstream";
import initConvert, {
  GeminiToOpenAI,
  SignatureCache,
  cleanSchemaForGemini,
  historyDisablesThinking,
  messagesToAnthropic,
  messagesToOpenAI,
  modelSupportsThinking,
  toolChoiceToAnthropic,
  toolChoiceToOpenAI,
  toolsToAnthropic,
  toolsToOpenAI,
  type AnthropicMessage,
  type NestedTool,
  type OpenAIChunk,
  type ThinkingCheck,
} from "docstream/convert";
import initInline, { DocStream as InlineDocStream } from "docstream/inline";
import { patches } from "docstream/stream";
import { PatchApplier, applyPatches } from "docstream/apply";

const options: DocStreamOptions = {
  format: "cursor-stream-json",
  images: { allow: ["https://img.example"] },
  locale: "de",
  diff: "split",
  limits: { maxEventBytes: 1 << 20, maxDepth: 64 },
};
// @ts-expect-error not a locale
const badLocale: DocStreamOptions = { locale: "fr" };
// @ts-expect-error not a format
const badFormat: DocStreamOptions = { format: "nope" };
// @ts-expect-error not a diff mode
const badDiff: DocStreamOptions = { diff: "sideways" };
void badLocale, badFormat, badDiff;

/** Where each patch goes, by its `op`: the union narrows. */
function target(p: Patch): string {
  switch (p.op) {
    case "insert_turn":
    case "replace_turn_header":
      return `turn ${p.turn}`;
    case "insert_document":
    case "replace_document":
      return `${p.turn}/${p.index}: ${p.html.length}`;
    case "append_part":
    case "replace_part":
      return `${p.turn}/${p.index} ${p.part}: ${p.html.length}`;
    case "open_element":
      return `${p.turn}/${p.index} ${p.part} <${p.tag}>`;
    case "set_attr":
      return `${p.turn}/${p.index} ${p.part} ${p.attr}=${p.value}`;
    case "append_text":
      return `${p.turn}/${p.index} ${p.part}: ${p.text}`;
    case "close_element":
      return `${p.turn}/${p.index} ${p.part}`;
  }
}

export async function use(bytes: Uint8Array, body: ReadableStream<Uint8Array>, signal: AbortSignal) {
  await init({ module_or_path: bytes });
  await initInline();
  const s = new DocStream(options);
  const pushed: Patch[] = s.push(bytes);
  s.push("text");
  s.push(bytes.buffer as ArrayBuffer);
  pushed.map(target);
  const done: Patch[] = s.finish();
  void done;
  const html: string = s.html();
  const text: string = s.text();
  const format: Format | undefined = s.format;
  const snapshot: Conversation = s.snapshot();
  for (const turn of snapshot.turns) {
    if (turn.role === "assistant") {
      const doc: Document | undefined = turn.documents?.[0];
      if (doc?.type === "file_edit") {
        // Fields with a serde default are optional in the declarations (tsify reads
        // `default` as optional), though output always has them.
        const path: string | undefined = doc.metadata.filePath;
        void path;
      }
    }
  }
  const diff: DiffView | undefined = s.diffView("doc_005");
  const added: number | undefined = diff?.hunks[0]?.lines[0]?.newLine ?? undefined;
  const plan: PlanView | undefined = s.planView("doc_002");
  const done2: number | undefined = plan?.done;
  void html, text, format, added, done2;
  s.free();

  const other = new InlineDocStream();
  for await (const batch of patches(other, body, { signal })) batch.map(target);

  // The batched form, applied to an element with docstream/apply.
  const batched = new DocStream();
  const changed: boolean = batched.write(bytes);
  batched.writeText("more");
  batched.end();
  const wire: string = batched.pull();
  const root = document.createElement("main");
  const applier = new PatchApplier(root, { document: (el: Element) => el.setAttribute("part", "document") });
  const applied: number = applier.applyWire(wire);
  applyPatches(root, wire);
  applyPatches(root, pushed);
  void changed, applied;

  await initConvert();
  const history: AnthropicMessage[] = [{ role: "user", content: "hi" }];
  const openai = messagesToOpenAI(history);
  messagesToAnthropic(openai);
  historyDisablesThinking(history);
  const nested: NestedTool[] = toolsToOpenAI([{ name: "read", input_schema: { type: "object" } }]);
  toolsToAnthropic(nested);
  toolChoiceToOpenAI({ type: "any" });
  toolChoiceToAnthropic("required");
  cleanSchemaForGemini({ type: "object" });
  const thinks: boolean = modelSupportsThinking("claude-sonnet-4-5");
  const cache = new SignatureCache();
  const check: ThinkingCheck = cache.check("t", "s");
  if (check.action === "thinking") {
    const signature: string = check.signature;
    void signature;
  }
  const longest: string | undefined = cache.longest;
  const gemini = new GeminiToOpenAI("id", "gemini-3-pro");
  const chunks: OpenAIChunk[] = gemini.convert('{"candidates":[]}');
  void thinks, longest, chunks, gemini.longestSignature;
}
