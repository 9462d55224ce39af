//! What a `tool_call` document did, as a person reads it: a file read, a search's
//! matches grouped by file, web results, a sub-agent, an MCP call. The normaliser
//! decides it once, from the call's kind, arguments and result, and stores it in the
//! call's metadata ([`ToolCallMeta::view`](super::ToolCallMeta::view)); the renderers
//! and the progress lines read it, and no other part of the call's JSON, to say what
//! the call did.
//!
//! A view is derived, not kept: it is not serialised (a saved response round-trips
//! unchanged), and the normaliser makes it again for a response it loads.

/// A `tool_call` document as a person reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolView {
    /// A file read.
    Read(ReadView),
    /// A search or listing: grep, glob, ls, codebase search.
    Search(SearchView),
    /// A web search.
    WebSearch(WebSearchView),
    /// A fetched web page.
    WebFetch(WebFetchView),
    /// A sub-agent started by the call (its run is a turn of its own; what it was asked
    /// is the call's [`Subagent`](super::Subagent)).
    Subagent(SubagentView),
    /// A tool of an MCP server, or any other tool.
    Generic(GenericView),
}

impl Default for ToolView {
    /// A call docstream has no view for: its name, arguments and result as they are.
    fn default() -> Self {
        ToolView::Generic(GenericView::default())
    }
}

/// A text a view shows: where the call's result holds it as it is (kept there only,
/// so a file read is not held twice), or made by the normaliser (line numbers removed,
/// blocks joined). [`ToolCallMeta::view_text`](super::ToolCallMeta::view_text) gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewText {
    /// The string at this JSON Pointer (RFC 6901) of the result's `data` (`""`: the
    /// data itself).
    InResult(String),
    /// Text made from the result.
    Made(String),
}

/// A file read: path, lines, content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadView {
    /// The file.
    pub path: String,
    /// First line shown (1-based).
    pub start: u64,
    /// The text read, line numbers removed; `None` until the result came.
    pub content: Option<ViewText>,
    /// Language from the path (`rust`, `text` …).
    pub language: String,
}

/// What a search looked through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchKind {
    /// File contents (grep).
    Grep,
    /// File names (glob).
    Glob,
    /// A directory listing.
    List,
    /// The codebase, by meaning.
    Codebase,
}

/// One file of a search result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileGroup {
    /// The file's path.
    pub path: String,
    /// Matching lines: line number (where known) and text.
    pub lines: Vec<(Option<u64>, String)>,
    /// Matches in the file (at least the lines listed).
    pub count: u64,
}

/// A search or listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchView {
    /// What kind.
    pub kind: SearchKind,
    /// The pattern or query.
    pub query: Option<String>,
    /// Where it looked.
    pub path: Option<String>,
    /// Matches grouped by file, in the order given; `None` until the result came or
    /// when it could not be read (then it is shown as text or JSON).
    pub groups: Option<Vec<FileGroup>>,
}

impl SearchView {
    /// All matches (the files, for a listing).
    pub fn matches(&self) -> u64 {
        self.groups.as_ref().map_or(0, |g| {
            g.iter()
                .map(|f| f.count.max(1))
                .fold(0, u64::saturating_add)
        })
    }
}

/// One web result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebLink {
    /// Its title (the URL when there is none).
    pub title: String,
    /// Its address.
    pub url: String,
    /// A snippet.
    pub snippet: Option<String>,
}

/// A web search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebSearchView {
    /// The query.
    pub query: Option<String>,
    /// The results with links.
    pub links: Vec<WebLink>,
    /// A text answer, where the tool gives one.
    pub text: Option<String>,
}

/// A fetched page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebFetchView {
    /// The address.
    pub url: Option<String>,
    /// What the tool was asked about the page (Gemini CLI names the pages in it).
    pub prompt: Option<String>,
    /// The page's text, as the tool returned it.
    pub text: Option<ViewText>,
    /// The HTTP status, where the tool says.
    pub code: Option<u64>,
}

/// A sub-agent: its whole prompt, and its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubagentView {
    /// The whole prompt.
    pub prompt: Option<String>,
    /// Its final answer (Markdown), once the call's result came; the lines Claude Code
    /// adds for resuming the agent (`agentId: …` and its `<usage>`) are left out.
    pub answer: Option<String>,
    /// The facts its result gives about the run: its id, how it ended, what it used
    /// (`None`: it says none; boxed, as few results say any).
    pub facts: Option<Box<RunFacts>>,
}

/// What a sub-agent's result says about its run (Claude Code's `toolUseResult`, or the
/// `agentId: …` and `<usage>` lines after its answer); each is `None` when not said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunFacts {
    /// The agent's id (`agentId`): its transcript is `agent-<id>.jsonl`.
    pub agent_id: Option<String>,
    /// How it ended, as the agent reports it (`completed`, `success`, `async_launched` …).
    pub status: Option<String>,
    /// Tokens it used.
    pub tokens: Option<u64>,
    /// Tool calls it made.
    pub tool_uses: Option<u64>,
    /// How long it ran.
    pub duration_ms: Option<u64>,
}

/// An MCP tool or a tool docstream has no view for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GenericView {
    /// The MCP server, where known.
    pub server: Option<String>,
    /// The tool's name where it is not the call's (an MCP server's tool); `None`: the
    /// call's `tool_name`.
    pub tool: Option<String>,
    /// The field of the call's arguments that holds the arguments given to the
    /// server's tool (Cursor's `mcpToolCall` wraps them in `args`); `None`: the call's
    /// arguments themselves. See [`ToolCallMeta::shown_arguments`](super::ToolCallMeta::shown_arguments).
    pub arguments_field: Option<String>,
    /// The result's text, where it is text.
    pub text: Option<ViewText>,
}
