//! MCP tools and tools docstream has no view for, to a [`GenericView`]: the server
//! and the tool where an MCP call names them, and the result's text where it is text.

use serde_json::Value;

use super::fields::{field, text_field};
use crate::model::{GenericView, ToolCallMeta, ToolKind, ViewText};

/// The generic view of a call of `kind`.
pub(super) fn generic(m: &ToolCallMeta, kind: ToolKind) -> GenericView {
    let args = &m.arguments;
    let text = m.result.as_ref().and_then(|r| match &r.data {
        Value::String(_) => Some(ViewText::InResult(String::new())),
        data => result_text(data).map(ViewText::Made),
    });
    if let Some(rest) = m.tool_name.strip_prefix("mcp__") {
        // Claude Code's `mcp__<server>__<tool>`.
        let (server, tool) = rest.split_once("__").unwrap_or(("", rest));
        return GenericView {
            server: Some(server.to_owned()).filter(|s| !s.is_empty()),
            tool: Some(tool.to_owned()),
            arguments_field: None,
            text,
        };
    }
    if kind == ToolKind::Mcp {
        let tool = text_field(args, &["toolName", "tool_name", "name", "tool"]).unwrap_or("tool");
        let server = &["providerIdentifier", "serverName", "server_name", "server"];
        return GenericView {
            server: text_field(args, server).map(str::to_owned),
            tool: Some(tool.to_owned()),
            // The first of these present, unless it is null.
            arguments_field: ["args", "arguments", "input"]
                .into_iter()
                .find_map(|f| Some((f, args.get(f)?)))
                .filter(|(_, v)| !v.is_null())
                .map(|(f, _)| f.to_owned()),
            text,
        };
    }
    GenericView {
        tool: readable_name(&m.tool_name),
        text,
        ..GenericView::default()
    }
}

/// A name Cursor keys a tool's payload by (`listMcpResourcesToolCall`), as a person
/// reads it ("List MCP resources"); `None` for other names, which are shown as they
/// are.
pub(super) fn readable_name(name: &str) -> Option<String> {
    let stem = name.strip_suffix("ToolCall").filter(|s| !s.is_empty())?;
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in stem.chars() {
        if (c.is_ascii_uppercase() || c == '_') && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if c != '_' {
            word.push(c.to_ascii_lowercase());
        }
    }
    words.push(word);
    let words: Vec<String> = words
        .into_iter()
        .filter(|w| !w.is_empty())
        .map(|w| match w.as_str() {
            "mcp" | "url" | "api" | "id" | "ui" | "pr" => w.to_ascii_uppercase(),
            _ => w,
        })
        .collect();
    let mut out = words.join(" ");
    if let Some(first) = out.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    Some(out).filter(|s| !s.is_empty())
}

/// The text of a result: a string, Cursor's `{content: [{text: {text}}]}`, MCP's
/// `{content: [{type: "text", text}]}` or a list of such blocks.
pub(super) fn result_text(data: &Value) -> Option<String> {
    match data {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => {
            let texts: Option<Vec<&str>> = items
                .iter()
                .map(|i| {
                    i.as_str()
                        .or_else(|| text_field(i, &["text"]))
                        .or_else(|| field(i, &["text"]).and_then(|t| text_field(t, &["text"])))
                })
                .collect();
            texts.filter(|t| !t.is_empty()).map(|t| t.join("\n"))
        }
        Value::Object(_) => result_text(field(data, &["content"])?),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cursor_payload_keys_read_as_words() {
        let r = |n: &str| readable_name(n);
        assert_eq!(
            r("listMcpResourcesToolCall").as_deref(),
            Some("List MCP resources")
        );
        assert_eq!(
            r("fetchMcpResourceToolCall").as_deref(),
            Some("Fetch MCP resource")
        );
        assert_eq!(r("readLintsToolCall").as_deref(), Some("Read lints"));
        assert_eq!(r("ToolCall"), None);
        assert_eq!(r("get_weather"), None);
        assert_eq!(r("ÉtéToolCall").as_deref(), Some("Été"));
    }

    #[test]
    fn mcp_names_split() {
        let m = ToolCallMeta {
            tool_name: "mcp__github__get_issue".into(),
            arguments: json!({"n": 1}),
            ..ToolCallMeta::default()
        };
        let g = generic(&m, ToolKind::Mcp);
        assert_eq!(
            (g.server.as_deref(), g.tool.as_deref()),
            (Some("github"), Some("get_issue"))
        );
    }

    #[test]
    fn an_mcp_call_shows_the_arguments_it_wraps_for_the_servers_tool() {
        let shown = |args: Value| {
            let mut m = ToolCallMeta {
                tool_name: "mcpToolCall".into(),
                arguments: args,
                ..ToolCallMeta::default()
            };
            m.view = crate::model::ToolView::Generic(generic(&m, ToolKind::Mcp));
            m.shown_arguments().clone()
        };
        assert_eq!(
            shown(json!({"name": "get", "args": {"n": 1}})),
            json!({"n": 1})
        );
        // The first alias present wins, even when null: then the call's own are shown.
        let own = json!({"name": "get", "args": null, "input": {"n": 1}});
        assert_eq!(shown(own.clone()), own);
        assert_eq!(shown(json!({"name": "get"})), json!({"name": "get"}));
    }
}
