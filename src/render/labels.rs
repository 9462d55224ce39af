//! The localisable label table: every label the HTML and the progress lines show.

use serde::{Deserialize, Serialize};

/// A language of the labels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum Locale {
    /// English.
    #[default]
    En,
    /// German.
    De,
}

impl Locale {
    /// Parses `en` or `de` (case-insensitive, region ignored: `de-DE`).
    pub fn parse(s: &str) -> Option<Locale> {
        let lang = s
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match lang.as_str() {
            "en" => Some(Locale::En),
            "de" => Some(Locale::De),
            _ => None,
        }
    }
}

/// A label key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Label {
    You,
    Assistant,
    Copy,
    CopyCode,
    CopyOutput,
    Line,
    Lines,
    ExitCode,
    WorkingDirectory,
    Duration,
    Output,
    OutputTruncated,
    Arguments,
    Result,
    Running,
    Streaming,
    Success,
    Error,
    Rejected,
    NoResult,
    Thinking,
    ThoughtFor,
    Redacted,
    Progress,
    DependsOn,
    UnknownDependency,
    CyclicDependency,
    Pending,
    InProgress,
    Completed,
    Cancelled,
    UnknownStatus,
    Created,
    Deleted,
    Renamed,
    Unified,
    SideBySide,
    UnchangedLines,
    Usage,
    BackToReference,
    TaskDone,
    TaskOpen,
    Tokens,
    Source,
    TodoUpdate,
    ReadFile,
    EditedFile,
    CreatedFile,
    DeletedFile,
    RanCommand,
    CalledTool,
    WrotePlan,
    UpdatedTodos,
    AskedQuestion,
}

/// The text of a label in a locale.
pub fn label(locale: Locale, key: Label) -> &'static str {
    use Label::*;
    let (en, de) = match key {
        You => ("You", "Du"),
        Assistant => ("Assistant", "Assistent"),
        Copy => ("Copy", "Kopieren"),
        CopyCode => ("Copy code", "Code kopieren"),
        CopyOutput => ("Copy output", "Ausgabe kopieren"),
        Line => ("line", "Zeile"),
        Lines => ("lines", "Zeilen"),
        ExitCode => ("exit code", "Exit-Code"),
        WorkingDirectory => ("in", "in"),
        Duration => ("took", "Dauer"),
        Output => ("Output", "Ausgabe"),
        OutputTruncated => ("Show full output", "Vollständige Ausgabe zeigen"),
        Arguments => ("Arguments", "Argumente"),
        Result => ("Result", "Ergebnis"),
        Running => ("running", "läuft"),
        Streaming => ("streaming", "empfängt"),
        Success => ("success", "erfolgreich"),
        Error => ("error", "Fehler"),
        Rejected => ("rejected", "abgelehnt"),
        NoResult => ("no result", "kein Ergebnis"),
        Thinking => ("Thinking", "Überlegung"),
        ThoughtFor => ("Thought for", "Überlegt für"),
        Redacted => ("(withheld)", "(zurückgehalten)"),
        Progress => ("done", "erledigt"),
        DependsOn => ("after", "nach"),
        UnknownDependency => ("unknown dependency", "unbekannte Abhängigkeit"),
        CyclicDependency => ("cyclic dependency", "zyklische Abhängigkeit"),
        Pending => ("pending", "offen"),
        InProgress => ("in progress", "in Arbeit"),
        Completed => ("completed", "erledigt"),
        Cancelled => ("cancelled", "abgebrochen"),
        UnknownStatus => ("unknown status", "unbekannter Status"),
        Created => ("new file", "neue Datei"),
        Deleted => ("deleted", "gelöscht"),
        Renamed => ("renamed", "umbenannt"),
        Unified => ("Unified", "Einheitlich"),
        SideBySide => ("Side by side", "Nebeneinander"),
        UnchangedLines => ("unchanged lines", "unveränderte Zeilen"),
        Usage => ("usage", "Verbrauch"),
        BackToReference => ("Back to reference", "Zurück zum Verweis"),
        TaskDone => ("done", "erledigt"),
        TaskOpen => ("not done", "offen"),
        Tokens => ("tokens", "Tokens"),
        Source => ("source", "Quelle"),
        TodoUpdate => ("Todos updated", "Aufgaben aktualisiert"),
        ReadFile => ("Read file", "Datei gelesen"),
        EditedFile => ("Edited file", "Datei bearbeitet"),
        CreatedFile => ("Created new file", "Neue Datei erstellt"),
        DeletedFile => ("Deleted file", "Datei gelöscht"),
        RanCommand => ("Ran terminal command", "Terminal-Befehl ausgeführt"),
        CalledTool => ("Called tool", "Werkzeug aufgerufen"),
        WrotePlan => ("Wrote plan", "Plan erstellt"),
        UpdatedTodos => ("Updated todos", "Aufgaben aktualisiert"),
        AskedQuestion => ("Asked a question", "Frage gestellt"),
    };
    match locale {
        Locale::En => en,
        Locale::De => de,
    }
}
