//! Thinking-signature rules for sending thinking blocks back to a provider (seed 002).
//!
//! A signature is valid when it has at least [`MIN_SIGNATURE_LEN`] characters; an empty
//! thinking block with any signature is valid (a trailing signature). An invalid one is
//! repaired with the longest signature seen so far in this conversation, or the block
//! is downgraded to text; an empty thinking block without a signature is dropped. The
//! longest signature lives in a [`SignatureCache`] the converter owns, not in a global.
//!
//! ```
//! use docstream_convert::thinking::{Checked, SignatureCache};
//!
//! let mut cache = SignatureCache::default();
//! let good = "s".repeat(60);
//! assert_eq!(cache.check("plan", &good), Checked::Thinking { signature: good.clone() });
//! assert_eq!(cache.check("again", "short"), Checked::Thinking { signature: good });
//! ```

use serde_json::{Value, json};

/// The shortest signature accepted as valid.
pub const MIN_SIGNATURE_LEN: usize = 50;

/// The longest valid signature seen in one conversation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SignatureCache {
    longest: Option<String>,
}

/// What to do with one thinking block. Serialised as `{action: "thinking", signature}`,
/// `{action: "text"}` or `{action: "drop"}`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "ThinkingCheck")
)]
#[serde(tag = "action", rename_all = "lowercase")]
pub enum Checked {
    /// Keep it as thinking, with this signature.
    Thinking {
        /// The signature to send (the block's own, or a repaired one).
        signature: String,
    },
    /// Send its thinking as a plain text block instead.
    Text,
    /// Leave it out.
    Drop,
}

impl SignatureCache {
    /// Remembers `signature` when it is valid and longer than any seen before.
    pub fn observe(&mut self, signature: &str) {
        let longer = self
            .longest
            .as_ref()
            .is_none_or(|l| signature.len() > l.len());
        if is_valid(signature) && longer {
            self.longest = Some(signature.to_owned());
        }
    }

    /// The longest valid signature seen so far.
    pub fn longest(&self) -> Option<&str> {
        self.longest.as_deref()
    }

    /// Applies the rules to a block with `thinking` text and `signature`.
    pub fn check(&mut self, thinking: &str, signature: &str) -> Checked {
        if thinking.is_empty() {
            return if signature.is_empty() {
                Checked::Drop
            } else {
                Checked::Thinking {
                    signature: signature.to_owned(),
                }
            };
        }
        if is_valid(signature) {
            self.observe(signature);
            return Checked::Thinking {
                signature: signature.to_owned(),
            };
        }
        match &self.longest {
            Some(repair) => Checked::Thinking {
                signature: repair.clone(),
            },
            None => Checked::Text,
        }
    }
}

impl SignatureCache {
    /// Applies the rules to every `thinking` block of an Anthropic-style `messages`
    /// array, in order: a block keeps its signature or gets the repaired one, becomes a
    /// `text` block, or is left out. Other blocks and messages are kept as they are.
    ///
    /// ```
    /// use docstream_convert::thinking::SignatureCache;
    /// use serde_json::json;
    ///
    /// let good = "s".repeat(60);
    /// let history = json!([
    ///     {"role": "assistant", "content": [{"type": "thinking", "thinking": "a", "signature": good}]},
    ///     {"role": "assistant", "content": [
    ///         {"type": "thinking", "thinking": "b", "signature": "short"},
    ///         {"type": "thinking", "thinking": "", "signature": ""}
    ///     ]}
    /// ]);
    /// let fixed = SignatureCache::default().repair_history(history.as_array().unwrap());
    /// assert_eq!(fixed[1]["content"], json!([{"type": "thinking", "thinking": "b", "signature": good}]));
    /// ```
    pub fn repair_history(&mut self, messages: &[Value]) -> Vec<Value> {
        messages
            .iter()
            .map(|message| {
                let Some(blocks) = message.get("content").and_then(Value::as_array) else {
                    return message.clone();
                };
                let mut fixed = Vec::with_capacity(blocks.len());
                for block in blocks {
                    if block.get("type").and_then(Value::as_str) != Some("thinking") {
                        fixed.push(block.clone());
                        continue;
                    }
                    let text = block.get("thinking").and_then(Value::as_str).unwrap_or("");
                    let signature = block.get("signature").and_then(Value::as_str).unwrap_or("");
                    match self.check(text, signature) {
                        Checked::Thinking { signature } => {
                            let mut block = block.clone();
                            block["signature"] = Value::String(signature);
                            fixed.push(block);
                        }
                        Checked::Text => fixed.push(json!({"type": "text", "text": text})),
                        Checked::Drop => {}
                    }
                }
                let mut message = message.clone();
                message["content"] = Value::Array(fixed);
                message
            })
            .collect()
    }
}

/// Whether `signature` is long enough to be accepted.
pub fn is_valid(signature: &str) -> bool {
    signature.chars().count() >= MIN_SIGNATURE_LEN
}

/// Whether `model` can think: names with `-thinking`, the `gemini-3-pro` family and
/// every `claude-` model; other Gemini models cannot.
pub fn model_supports_thinking(model: &str) -> bool {
    let model = model.to_ascii_lowercase();
    model.contains("-thinking") || model.contains("gemini-3-pro") || model.starts_with("claude-")
}

/// Whether thinking is on by default for `model`: Opus 4.5 and `-thinking` names.
pub fn thinking_enabled_by_default(model: &str) -> bool {
    let model = model.to_ascii_lowercase();
    model.contains("opus-4-5") || model.contains("opus-4.5") || model.contains("-thinking")
}

/// Whether thinking must be turned off because the last assistant turn of an
/// Anthropic-style `messages` array used tools without thinking.
pub fn history_disables_thinking(messages: &[serde_json::Value]) -> bool {
    let Some(last) = messages.iter().rev().find(|m| {
        matches!(
            m.get("role").and_then(serde_json::Value::as_str),
            Some("assistant" | "model")
        )
    }) else {
        return false;
    };
    let Some(blocks) = last.get("content").and_then(serde_json::Value::as_array) else {
        return false;
    };
    let has = |kind: &str| {
        blocks
            .iter()
            .any(|b| b.get("type").and_then(serde_json::Value::as_str) == Some(kind))
    };
    has("tool_use") && !has("thinking")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_002_signature_rules() {
        let mut cache = SignatureCache::default();
        // No signature seen yet: an invalid one downgrades the block to text.
        assert_eq!(
            cache.check("Let me analyze this problem...", "abc"),
            Checked::Text
        );
        // Empty thinking with a signature is valid; empty with none is dropped.
        assert_eq!(
            cache.check("", "x"),
            Checked::Thinking {
                signature: "x".to_owned()
            }
        );
        assert_eq!(cache.check("", ""), Checked::Drop);
        // A 50-character signature is valid and is remembered; a longer one replaces it.
        let fifty = "a".repeat(50);
        let seventy = "b".repeat(70);
        assert!(matches!(cache.check("t", &fifty), Checked::Thinking { .. }));
        cache.observe(&seventy);
        cache.observe(&fifty);
        assert_eq!(cache.longest(), Some(seventy.as_str()));
        // Now an invalid signature is repaired with the longest.
        assert_eq!(
            cache.check("more", &"c".repeat(49)),
            Checked::Thinking { signature: seventy }
        );
    }

    #[test]
    fn repair_history_keeps_repairs_downgrades_and_drops() {
        let good = "g".repeat(55);
        let history = serde_json::json!([
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "first", "signature": "bad"},
                {"type": "text", "text": "answer"}
            ]},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "second", "signature": good},
                {"type": "thinking", "thinking": "third"},
                {"type": "thinking", "thinking": ""},
                {"type": "tool_use", "id": "t", "name": "Bash", "input": {}}
            ]}
        ]);
        let mut cache = SignatureCache::default();
        let fixed = cache.repair_history(history.as_array().unwrap());
        assert_eq!(fixed[0], history[0]);
        // No valid signature seen yet: downgraded to text.
        assert_eq!(
            fixed[1]["content"],
            serde_json::json!([{"type": "text", "text": "first"}, {"type": "text", "text": "answer"}])
        );
        assert_eq!(
            fixed[2]["content"],
            serde_json::json!([
                {"type": "thinking", "thinking": "second", "signature": good},
                {"type": "thinking", "thinking": "third", "signature": good},
                {"type": "tool_use", "id": "t", "name": "Bash", "input": {}}
            ])
        );
        assert_eq!(cache.longest(), Some(good.as_str()));
    }

    #[test]
    fn seed_002_model_and_history_rules() {
        assert!(model_supports_thinking("claude-sonnet-4-5"));
        assert!(model_supports_thinking("Gemini-3-Pro-preview"));
        assert!(model_supports_thinking("gemini-2.5-flash-thinking"));
        assert!(!model_supports_thinking("gemini-2.5-flash"));
        assert!(thinking_enabled_by_default("claude-opus-4-5-20251101"));
        assert!(thinking_enabled_by_default("claude-opus-4.5"));
        assert!(!thinking_enabled_by_default("claude-sonnet-4-5"));
        let tools_only = serde_json::json!([
            {"role": "user", "content": "fix it"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}
        ]);
        assert!(history_disables_thinking(tools_only.as_array().unwrap()));
        let with_thinking = serde_json::json!([
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "hm", "signature": "s"},
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}
            ]}
        ]);
        assert!(!history_disables_thinking(
            with_thinking.as_array().unwrap()
        ));
        assert!(!history_disables_thinking(&[]));
    }
}
