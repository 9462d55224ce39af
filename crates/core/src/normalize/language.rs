//! A file's language from its extension, for `language` fields and `class="language-…"`.

/// The language name for a path, by extension or well-known file name; `""` if unknown.
pub(super) fn language_for_path(path: &str) -> &'static str {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    match name {
        "Dockerfile" => return "dockerfile",
        "Makefile" | "makefile" | "GNUmakefile" => return "makefile",
        "CMakeLists.txt" => return "cmake",
        _ => {}
    }
    let Some((_, ext)) = name.rsplit_once('.') else {
        return "";
    };
    match ext.to_ascii_lowercase().as_str() {
        "rs" => "rust",
        "py" | "pyi" => "python",
        "js" | "mjs" | "cjs" => "javascript",
        "jsx" => "jsx",
        "ts" | "mts" | "cts" => "typescript",
        "tsx" => "tsx",
        "go" => "go",
        "java" => "java",
        "kt" | "kts" => "kotlin",
        "swift" => "swift",
        "c" | "h" => "c",
        "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => "cpp",
        "cs" => "csharp",
        "rb" => "ruby",
        "php" => "php",
        "sh" | "bash" | "zsh" => "bash",
        "ps1" => "powershell",
        "html" | "htm" => "html",
        "css" => "css",
        "scss" => "scss",
        "vue" => "vue",
        "svelte" => "svelte",
        "json" => "json",
        "jsonl" | "ndjson" => "json",
        "yaml" | "yml" => "yaml",
        "toml" => "toml",
        "xml" => "xml",
        "md" | "markdown" => "markdown",
        "sql" => "sql",
        "lua" => "lua",
        "dart" => "dart",
        "scala" => "scala",
        "hs" => "haskell",
        "ex" | "exs" => "elixir",
        "erl" => "erlang",
        "clj" => "clojure",
        "r" => "r",
        "zig" => "zig",
        "nix" => "nix",
        "proto" => "protobuf",
        "graphql" | "gql" => "graphql",
        "tf" => "hcl",
        "txt" => "text",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::language_for_path;

    #[test]
    fn by_extension_and_name() {
        assert_eq!(language_for_path("src/main.rs"), "rust");
        assert_eq!(language_for_path("a/b/Dockerfile"), "dockerfile");
        assert_eq!(language_for_path("C:\\x\\y.PY"), "python");
        assert_eq!(language_for_path("noext"), "");
    }
}
