//! Shell tools to `terminal_command` documents: the command, where it ran, its exit
//! code and output.

use serde_json::Value;

use super::super::events::ToolOutcome;
use super::fields::{
    error_message, field, i64_field, refusal_reason, str_field, strings, u64_field,
    without_interruption,
};
use super::status_of;
use crate::model::{CallStatus, Meta, TerminalMeta};

pub(super) fn terminal(
    call_id: &str,
    args: &Value,
    outcome: Option<&ToolOutcome>,
    duration_ms: Option<u64>,
) -> (Meta, Option<String>) {
    let command = match field(args, &["command", "cmd", "commandLine", "script", "code"]) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    };
    let mut meta = TerminalMeta {
        command,
        working_directory: str_field(
            args,
            &[
                "workingDirectory",
                "cwd",
                "working_directory",
                "workdir",
                "directory",
                "dir_path",
            ],
        )
        .filter(|s| !s.is_empty())
        .map(str::to_owned),
        permissions: strings(
            args,
            &["permissions", "required_permissions", "requiredPermissions"],
        ),
        tool_call_id: Some(call_id.to_owned()).filter(|s| !s.is_empty()),
        status: Some(status_of(outcome)),
        is_background: field(
            args,
            &["isBackground", "is_background", "run_in_background"],
        )
        .and_then(Value::as_bool),
        duration_ms,
        ..TerminalMeta::default()
    };
    if let Some(o) = outcome {
        let d = &o.data;
        meta.exit_code = i64_field(
            d,
            &["exitCode", "exit_code", "code", "returncode", "exitCodeV2"],
        );
        let interleaved = str_field(d, &["interleavedOutput", "output", "combinedOutput"])
            .filter(|s| !s.is_empty());
        meta.output = match interleaved {
            Some(s) => s.to_owned(),
            None => {
                let stdout = str_field(d, &["stdout"]).unwrap_or_default();
                let stderr = str_field(d, &["stderr"]).unwrap_or_default();
                match (stdout.is_empty(), stderr.is_empty()) {
                    (_, true) => stdout.to_owned(),
                    (true, false) => stderr.to_owned(),
                    (false, false) => format!("{}\n{stderr}", stdout.trim_end_matches('\n')),
                }
            }
        };
        if meta.output.is_empty() {
            if let Value::String(s) = d {
                meta.output = s.clone();
            } else if o.status == CallStatus::Error {
                meta.output = error_message(d).unwrap_or_default();
            }
        }
        if meta.exit_code.is_none() {
            // Claude Code reports a failed command as text starting `Exit code N`.
            meta.exit_code = meta
                .output
                .strip_prefix("Exit code ")
                .and_then(|rest| rest.lines().next())
                .and_then(|n| n.trim().parse().ok());
        }
        if o.status.refused() {
            // Refused or stopped: why, as the tool said it; the command as the refusal
            // names it when the call's arguments did not (Cursor's `permissionDenied`).
            if error_message(d).as_deref() == Some(meta.output.as_str()) {
                // The tool's message is not output the command gave, but for what it
                // printed before the user stopped it.
                meta.output = if o.status == CallStatus::Interrupted {
                    without_interruption(&meta.output)
                } else {
                    String::new()
                };
            }
            meta.reason = refusal_reason(d);
            if meta.command.is_empty() {
                meta.command = str_field(d, &["command", "cmd"])
                    .unwrap_or_default()
                    .to_owned();
            }
        }
        if meta.working_directory.is_none() {
            meta.working_directory = str_field(d, &["workingDirectory", "cwd"])
                .filter(|s| !s.is_empty())
                .map(str::to_owned);
        }
        if meta.duration_ms.is_none() {
            meta.duration_ms = u64_field(d, &["executionTime", "duration_ms", "durationMs"]);
        }
    }
    (Meta::TerminalCommand(meta), None)
}

#[cfg(test)]
mod tests {
    use super::super::build;
    use super::*;
    use crate::model::ToolKind;
    use serde_json::json;

    #[test]
    fn shell_result_fields() {
        let outcome = ToolOutcome {
            status: CallStatus::Success,
            data: json!({"exitCode": 2, "stdout": "out\n", "stderr": "err", "executionTime": 12}),
        };
        let (meta, _) = build(
            "shellToolCall",
            ToolKind::Shell,
            "c",
            &json!({"command": "make"}),
            Some(&outcome),
            None,
        );
        let Meta::TerminalCommand(m) = meta else {
            panic!("not terminal")
        };
        assert_eq!(m.exit_code, Some(2));
        assert_eq!(m.output, "out\nerr");
        assert_eq!(m.duration_ms, Some(12));
    }
}
