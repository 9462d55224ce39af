//! Where each agent keeps its conversations by default, on Linux, macOS and Windows:
//! the folders `docstream list` with no path looks in.
//!
//! The table is [`PLACES`], written once; [`default_places`] turns it into paths for
//! one system and one environment, both given as arguments (no file is read here, so
//! every system's answer can be tested on any). Each place is a folder the library
//! opens as it opens any folder given to it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::Agent;

/// The systems whose places differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    /// Linux and the other Unix systems (XDG folders).
    Linux,
    /// macOS.
    MacOs,
    /// Windows.
    Windows,
}

impl Os {
    /// The system this was built for.
    pub fn current() -> Os {
        if cfg!(windows) {
            Os::Windows
        } else if cfg!(target_os = "macos") {
            Os::MacOs
        } else {
            Os::Linux
        }
    }
}

/// The folder a place is under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Root {
    /// The home folder: `$HOME` (`%USERPROFILE%` on Windows).
    Home,
    /// Where desktop apps keep their settings: `$XDG_CONFIG_HOME` else `~/.config`
    /// (Linux), `~/Library/Application Support` (macOS), `%APPDATA%` (Windows).
    AppData,
    /// The folder an environment variable names when it is set, else this folder of
    /// the home folder (Codex: `$CODEX_HOME`, else `~/.codex`).
    EnvOrHome(&'static str, &'static str),
}

/// Each agent's default place: the agent, the folder it is under, and the path below
/// that folder (`/`-separated), moved where the agent itself reads a variable that
/// moves it: Claude Code's `CLAUDE_CONFIG_DIR` (its whole `~/.claude`), Codex's
/// `CODEX_HOME`, Gemini CLI's `GEMINI_CLI_HOME` (a home folder of its own, with
/// `.gemini` below it), Copilot CLI's `COPILOT_HOME` (its whole `~/.copilot`), Cursor's
/// `CURSOR_CONFIG_DIR` (its whole `~/.cursor`, where the agent's transcripts are).
/// OpenCode: `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`, on every system.
pub const PLACES: &[(Agent, Root, &str)] = &[
    (Agent::Cursor, Root::AppData, "Cursor/User"),
    (
        Agent::ClaudeCode,
        Root::EnvOrHome("CLAUDE_CONFIG_DIR", ".claude"),
        "projects",
    ),
    (
        Agent::Codex,
        Root::EnvOrHome("CODEX_HOME", ".codex"),
        "sessions",
    ),
    (
        Agent::GeminiCli,
        Root::EnvOrHome("GEMINI_CLI_HOME", ""),
        ".gemini/tmp",
    ),
    (
        Agent::CopilotCli,
        Root::EnvOrHome("COPILOT_HOME", ".copilot"),
        "session-state",
    ),
    // Cursor's agent transcripts, `projects/<project>/agent-transcripts/`.
    (
        Agent::Cursor,
        Root::EnvOrHome("CURSOR_CONFIG_DIR", ".cursor"),
        "projects",
    ),
    // OpenCode keeps `opencode.db` in xdg-basedir's data folder on every system
    // (anomalyco/opencode `src/global/index.ts`): `$XDG_DATA_HOME/opencode`, else
    // `~/.local/share/opencode`, on macOS and Windows too.
    (
        Agent::OpenCode,
        Root::EnvOrHome("XDG_DATA_HOME", ".local/share"),
        "opencode",
    ),
];

/// One agent's default place on this system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The agent.
    pub agent: Agent,
    /// The folder, or why it cannot be told (`HOME is not set`).
    pub path: Result<PathBuf, String>,
}

/// The default place of every agent of [`PLACES`], in its order, for the system `os`
/// with the environment `env` (`|name| std::env::var_os(name)`). An empty variable
/// counts as not set.
pub fn default_places(os: Os, env: impl Fn(&str) -> Option<OsString>) -> Vec<Place> {
    let var = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let home = home(os, &env);
    PLACES
        .iter()
        .map(|&(agent, root, below)| {
            let base = match root {
                Root::Home => home.clone(),
                Root::EnvOrHome(name, dir) => match var(name) {
                    Some(p) => Ok(p),
                    None => home.clone().map(|h| join(&h, dir)),
                },
                Root::AppData => match os {
                    Os::Linux => match var("XDG_CONFIG_HOME") {
                        Some(p) => Ok(p),
                        None => home.clone().map(|h| h.join(".config")),
                    },
                    Os::MacOs => home
                        .clone()
                        .map(|h| join(&h, "Library/Application Support")),
                    Os::Windows => match var("APPDATA") {
                        Some(p) => Ok(p),
                        None => home.clone().map(|h| join(&h, "AppData/Roaming")),
                    },
                },
            };
            Place {
                agent,
                path: base.map(|b| join(&b, below)),
            }
        })
        .collect()
}

/// The home folder: `$HOME` (`%USERPROFILE%` on Windows), or what to say when it is
/// not set (or empty).
pub fn home(os: Os, env: impl Fn(&str) -> Option<OsString>) -> Result<PathBuf, String> {
    let name = if os == Os::Windows {
        "USERPROFILE"
    } else {
        "HOME"
    };
    env(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| format!("{name} is not set"))
}

/// `base` joined with a `/`-separated relative path, a component at a time (so the
/// system's separator is used).
fn join(base: &Path, relative: &str) -> PathBuf {
    relative
        .split('/')
        .filter(|c| !c.is_empty())
        .fold(base.to_owned(), |p, c| p.join(c))
}

/// A path as shown to people: under `home`, as `~/…` (`~\…` on Windows).
pub fn shown(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) if rest.as_os_str().is_empty() => "~".to_owned(),
        Some(rest) => format!("~{}{}", std::path::MAIN_SEPARATOR, rest.display()),
        None => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    fn paths(os: Os, vars: &[(&str, &str)]) -> Vec<(Agent, Result<PathBuf, String>)> {
        default_places(os, env(vars))
            .into_iter()
            .map(|p| (p.agent, p.path))
            .collect()
    }

    #[test]
    fn linux_places_under_home() {
        let got = paths(Os::Linux, &[("HOME", "/home/dev")]);
        let want: Vec<(Agent, Result<PathBuf, String>)> = vec![
            (Agent::Cursor, Ok("/home/dev/.config/Cursor/User".into())),
            (Agent::ClaudeCode, Ok("/home/dev/.claude/projects".into())),
            (Agent::Codex, Ok("/home/dev/.codex/sessions".into())),
            (Agent::GeminiCli, Ok("/home/dev/.gemini/tmp".into())),
            (
                Agent::CopilotCli,
                Ok("/home/dev/.copilot/session-state".into()),
            ),
            (Agent::Cursor, Ok("/home/dev/.cursor/projects".into())),
            (
                Agent::OpenCode,
                Ok("/home/dev/.local/share/opencode".into()),
            ),
        ];
        assert_eq!(got, want);
    }

    /// Each agent's own variable moves its place as the agent reads it; empty counts
    /// as not set.
    #[test]
    fn the_agents_own_variables_move_their_places() {
        for os in [Os::Linux, Os::MacOs, Os::Windows] {
            let got = paths(
                os,
                &[
                    ("HOME", "/home/dev"),
                    ("USERPROFILE", "/home/dev"),
                    ("CLAUDE_CONFIG_DIR", "/cfg/claude"),
                    ("GEMINI_CLI_HOME", "/cfg/gemini-home"),
                    ("COPILOT_HOME", "/cfg/copilot"),
                    ("CURSOR_CONFIG_DIR", "/cfg/cursor"),
                ],
            );
            let claude = Path::new("/cfg/claude").join("projects");
            let gemini = Path::new("/cfg/gemini-home").join(".gemini").join("tmp");
            let copilot = Path::new("/cfg/copilot").join("session-state");
            let cursor = Path::new("/cfg/cursor").join("projects");
            assert_eq!(got[1], (Agent::ClaudeCode, Ok(claude)), "{os:?}");
            assert_eq!(got[3], (Agent::GeminiCli, Ok(gemini)), "{os:?}");
            assert_eq!(got[4], (Agent::CopilotCli, Ok(copilot)), "{os:?}");
            assert_eq!(got[5], (Agent::Cursor, Ok(cursor)), "{os:?}");
        }
        let empty = [
            ("HOME", "/h"),
            ("CLAUDE_CONFIG_DIR", ""),
            ("GEMINI_CLI_HOME", ""),
            ("COPILOT_HOME", ""),
            ("CURSOR_CONFIG_DIR", ""),
        ];
        let got = paths(Os::Linux, &empty);
        assert_eq!(got[1].1, Ok("/h/.claude/projects".into()));
        assert_eq!(got[3].1, Ok("/h/.gemini/tmp".into()));
        assert_eq!(got[4].1, Ok("/h/.copilot/session-state".into()));
        assert_eq!(got[5].1, Ok("/h/.cursor/projects".into()));
        // Without a home folder, a place its variable names is still found.
        let got = paths(Os::Linux, &[("CLAUDE_CONFIG_DIR", "/c")]);
        assert_eq!(got[1].1, Ok("/c/projects".into()));
        assert_eq!(got[3].1, Err("HOME is not set".to_owned()));
    }

    /// OpenCode's data folder is xdg-basedir's on every system, moved by
    /// `XDG_DATA_HOME`.
    #[test]
    fn opencode_is_in_the_xdg_data_folder_everywhere() {
        let opencode = |os, vars: &[(&str, &str)]| {
            paths(os, vars)
                .into_iter()
                .find(|(a, _)| *a == Agent::OpenCode)
                .unwrap()
                .1
        };
        assert_eq!(
            opencode(Os::MacOs, &[("HOME", "/Users/dev")]),
            Ok("/Users/dev/.local/share/opencode".into())
        );
        assert_eq!(
            opencode(Os::Windows, &[("USERPROFILE", "C:/Users/dev")]),
            Ok(Path::new("C:/Users/dev")
                .join(".local")
                .join("share")
                .join("opencode"))
        );
        assert_eq!(
            opencode(Os::Linux, &[("HOME", "/h"), ("XDG_DATA_HOME", "/data")]),
            Ok("/data/opencode".into())
        );
    }

    #[test]
    fn codex_home_and_xdg_config_home_move_their_places() {
        let got = paths(
            Os::Linux,
            &[
                ("HOME", "/home/dev"),
                ("CODEX_HOME", "/srv/codex"),
                ("XDG_CONFIG_HOME", "/cfg"),
            ],
        );
        assert_eq!(got[0].1, Ok("/cfg/Cursor/User".into()));
        assert_eq!(got[2].1, Ok("/srv/codex/sessions".into()));
        // Empty counts as not set.
        let got = paths(Os::Linux, &[("HOME", "/h"), ("CODEX_HOME", "")]);
        assert_eq!(got[2].1, Ok("/h/.codex/sessions".into()));
    }

    #[test]
    fn macos_cursor_is_in_application_support() {
        let got = paths(Os::MacOs, &[("HOME", "/Users/dev")]);
        assert_eq!(
            got[0].1,
            Ok("/Users/dev/Library/Application Support/Cursor/User".into())
        );
        assert_eq!(got[1].1, Ok("/Users/dev/.claude/projects".into()));
    }

    #[test]
    fn windows_uses_userprofile_and_appdata() {
        let got = paths(
            Os::Windows,
            &[
                ("HOME", "/ignored"),
                ("USERPROFILE", "C:/Users/dev"),
                ("APPDATA", "C:/Users/dev/AppData/Roaming"),
            ],
        );
        assert_eq!(
            got[0].1,
            Ok(Path::new("C:/Users/dev/AppData/Roaming")
                .join("Cursor")
                .join("User"))
        );
        assert_eq!(
            got[1].1,
            Ok(Path::new("C:/Users/dev").join(".claude").join("projects"))
        );
    }

    #[test]
    fn no_home_says_why_and_codex_home_still_works() {
        let got = paths(Os::Linux, &[("HOME", ""), ("CODEX_HOME", "/c")]);
        assert_eq!(got[1].1, Err("HOME is not set".to_owned()));
        assert_eq!(got[2].1, Ok("/c/sessions".into()));
        let got = paths(Os::Windows, &[]);
        assert_eq!(got[0].1, Err("USERPROFILE is not set".to_owned()));
    }

    #[test]
    fn shown_with_a_tilde_under_home() {
        let home = Path::new("/home/dev");
        #[cfg(unix)]
        assert_eq!(
            shown(Path::new("/home/dev/.codex/sessions"), Some(home)),
            "~/.codex/sessions"
        );
        assert_eq!(shown(Path::new("/srv/x"), Some(home)), "/srv/x");
        assert_eq!(shown(home, Some(home)), "~");
    }
}
