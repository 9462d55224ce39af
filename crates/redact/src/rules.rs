//! The rules, as data: what each kind of credential looks like, and where that shape is
//! documented.
//!
//! Each pattern is written here from the provider's published token format (the
//! `source` of each rule); the rule ids of gitleaks' default configuration
//! (`config/gitleaks.toml`, MIT) that cover the same credential are named too, so a
//! reviewer can compare the two. gitleaks' own expressions are not taken whole: several
//! use Go-only syntax, many carry keyword and entropy filters that only its engine
//! applies, and a viewer needs far fewer rules than a repository scanner (one per
//! credential the issue names, plus the generic shapes).
//!
//! Order matters: where two rules match at the same place with the same length, the
//! earlier one names the kind (a JWT in `TOKEN=…` is a `jwt`).

/// What a match must also satisfy, beyond its pattern (regex has no look-around).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// The pattern is specific enough.
    None,
    /// Not a placeholder (`${VAR}`, `<token>`, `changeme`, `xxxx`, `password` …).
    NotPlaceholder,
    /// Not a placeholder, and shaped like a secret rather than a name: a digit and a
    /// letter, or 20 characters and more. Keeps `token = getToken` and `password: str`.
    SecretLike,
}

/// One rule: a kind of credential and the shape of its values.
#[derive(Debug)]
pub(crate) struct Rule {
    /// The kind, as the mask names it (`[redacted: github-token]`).
    pub(crate) kind: &'static str,
    /// The regular expression (regex crate syntax). Where it has capture groups, the
    /// first that took part in a match is the value masked; else the whole match.
    pub(crate) pattern: &'static str,
    /// What a match must also satisfy.
    pub(crate) check: Check,
    /// Where the shape is documented (and gitleaks' rule ids for the same credential).
    #[allow(dead_code)] // For the reader: the masking does not use it.
    pub(crate) source: &'static str,
}

// `(?-u:\b)`: an ASCII word boundary (`\b` with Unicode would send the fast engines back
// to the slow one on any non-ASCII text).
/// Every rule, most specific first.
pub(crate) const RULES: &[Rule] = &[
    Rule {
        kind: "private-key",
        pattern: r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=\s\\:,.\-]*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\:,.\-]*)",
        check: Check::None,
        source: "RFC 7468 (PEM) and OpenSSH/PGP armour; gitleaks private-key",
    },
    Rule {
        kind: "jwt",
        pattern: r"(?-u:\b)eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*",
        check: Check::None,
        source: "RFC 7519 compact form: base64url of a JSON header `{\"` . payload . signature; gitleaks jwt",
    },
    Rule {
        kind: "anthropic-api-key",
        pattern: r"(?-u:\b)sk-ant-(?:api|admin|oat|sid)[0-9]{2}-[A-Za-z0-9_\-]{32,}",
        check: Check::None,
        source: "Anthropic console keys `sk-ant-api03-…`, admin keys `sk-ant-admin01-…`; gitleaks anthropic-api-key, anthropic-admin-api-key",
    },
    Rule {
        kind: "openai-api-key",
        pattern: r"(?-u:\b)sk-(?:(?:proj|svcacct|admin|None)-)?[A-Za-z0-9_\-]{16,}T3BlbkFJ[A-Za-z0-9_\-]{16,}",
        check: Check::None,
        source: "OpenAI keys carry `T3BlbkFJ` (base64 of `OpenAI`), project keys `sk-proj-…`; gitleaks openai-api-key",
    },
    Rule {
        kind: "openai-api-key",
        pattern: r"(?-u:\b)sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{40,}|(?-u:\b)sk-[A-Za-z0-9]{32,}(?-u:\b)",
        check: Check::None,
        source: "OpenAI project/service-account keys without the marker, and `sk-` + 32 or more letters and digits (OpenAI's legacy keys, and the OpenAI-compatible APIs that copied them)",
    },
    Rule {
        kind: "google-api-key",
        pattern: r"(?-u:\b)AIza[0-9A-Za-z_\-]{35}(?-u:\b)",
        check: Check::None,
        source: "Google Cloud API keys (Gemini, Maps …): `AIza` + 35; gitleaks gcp-api-key",
    },
    Rule {
        kind: "google-oauth-client-secret",
        pattern: r"(?-u:\b)GOCSPX-[0-9A-Za-z_\-]{28}(?-u:\b)",
        check: Check::None,
        source: "Google OAuth client secrets `GOCSPX-` + 28",
    },
    Rule {
        kind: "azure-ad-client-secret",
        pattern: r"(?-u:\b)[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}(?-u:\b)",
        check: Check::None,
        source: "Microsoft Entra ID (Azure AD) client secrets: three characters, a digit, `Q~`, 31-34 more; gitleaks azure-ad-client-secret",
    },
    Rule {
        kind: "azure-storage-key",
        pattern: r"(?i)AccountKey=([A-Za-z0-9+/]{86}==)",
        check: Check::None,
        source: "Azure Storage connection strings `AccountKey=` + 88 base64 characters (Azure Storage docs, 'Configure a connection string')",
    },
    Rule {
        kind: "azure-sas-signature",
        pattern: r"[?&]sig=([A-Za-z0-9%+/=]{20,})",
        check: Check::None,
        source: "Azure shared access signatures: the `sig=` parameter of a SAS URL (Azure Storage docs, 'Grant limited access with SAS')",
    },
    Rule {
        kind: "aws-access-key-id",
        pattern: r"(?-u:\b)(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?-u:\b)",
        check: Check::None,
        source: "AWS IAM access key ids (`AKIA` long-term, `ASIA` temporary; IAM User Guide, 'Unique identifiers'); gitleaks aws-access-token",
    },
    Rule {
        kind: "aws-secret-access-key",
        pattern: r#"(?i)aws_?secret_?(?:access_?)?key["']?[ \t]*[:=][ \t]*["']?([A-Za-z0-9/+]{40})(?-u:\b)"#,
        check: Check::None,
        source: "AWS secret access keys: 40 base64 characters, found by their name (`aws_secret_access_key` in ~/.aws/credentials and the AWS_SECRET_ACCESS_KEY variable)",
    },
    Rule {
        kind: "github-token",
        pattern: r"(?-u:\b)gh[pousr]_[A-Za-z0-9]{36,255}(?-u:\b)|(?-u:\b)github_pat_[A-Za-z0-9_]{22,255}(?-u:\b)",
        check: Check::None,
        source: "GitHub token prefixes `ghp_ gho_ ghu_ ghs_ ghr_` and fine-grained `github_pat_` (GitHub docs, 'About authentication to GitHub'); gitleaks github-pat, github-fine-grained-pat, github-oauth, github-app-token, github-refresh-token",
    },
    Rule {
        kind: "gitlab-token",
        pattern: r"(?-u:\b)gl(?:pat|dt|rt|ptt|cbt|ft|imt|oas|soat|agent|feed)-[A-Za-z0-9_\-]{20,}",
        check: Check::None,
        source: "GitLab token prefixes (GitLab docs, 'Token overview': glpat- personal, gldt- deploy, glrt- runner …); gitleaks gitlab-pat, gitlab-deploy-token, gitlab-runner-authentication-token …",
    },
    Rule {
        kind: "slack-token",
        pattern: r"(?-u:\b)xox[abposre]-[0-9A-Za-z\-]{10,}|(?-u:\b)xapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+",
        check: Check::None,
        source: "Slack tokens `xoxb- xoxp- xoxa- xoxo- xoxs- xoxr- xoxe-` and app tokens `xapp-` (Slack API docs, 'Token types'); gitleaks slack-bot-token, slack-user-token, slack-app-token …",
    },
    Rule {
        kind: "slack-webhook",
        pattern: r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_\-]{20,}",
        check: Check::None,
        source: "Slack incoming webhooks (Slack API docs, 'Sending messages using incoming webhooks'); gitleaks slack-webhook-url",
    },
    Rule {
        kind: "stripe-key",
        pattern: r"(?-u:\b)(?:sk|rk)_(?:live|test|prod)_[0-9A-Za-z]{10,99}(?-u:\b)|(?-u:\b)whsec_[0-9A-Za-z]{24,}(?-u:\b)",
        check: Check::None,
        source: "Stripe secret and restricted keys `sk_live_ rk_live_ sk_test_`, webhook secrets `whsec_` (Stripe docs, 'API keys'); gitleaks stripe-access-token",
    },
    Rule {
        kind: "twilio-api-key",
        pattern: r"(?-u:\b)SK[0-9a-fA-F]{32}(?-u:\b)",
        check: Check::None,
        source: "Twilio API key SIDs `SK` + 32 hex (Twilio docs, 'API keys'); gitleaks twilio-api-key",
    },
    Rule {
        kind: "npm-token",
        pattern: r"(?-u:\b)npm_[A-Za-z0-9]{36}(?-u:\b)",
        check: Check::None,
        source: "npm access tokens `npm_` + 36 (npm docs, 'About access tokens'); gitleaks npm-access-token",
    },
    Rule {
        kind: "huggingface-token",
        pattern: r"(?-u:\b)(?:hf_|api_org_)[A-Za-z]{34}(?-u:\b)",
        check: Check::None,
        source: "Hugging Face user access tokens `hf_` + 34 letters, organisation tokens `api_org_`; gitleaks huggingface-access-token, huggingface-organization-api-token",
    },
    Rule {
        kind: "connection-string-password",
        pattern: r#"(?i)(?-u:\b)[a-z][a-z0-9+.\-]{1,20}://[^\s:/@?#"'<>]+:([^\s@/?#"'<>]+)@[A-Za-z0-9\[]"#,
        check: Check::NotPlaceholder,
        source: "URLs with user information (RFC 3986 §3.2.1): database URLs `postgres://user:pass@host`, `mongodb+srv://…`, `https://user:pass@…`",
    },
    Rule {
        kind: "bearer-token",
        pattern: r"(?i)(?-u:\b)bearer[ \t]+([A-Za-z0-9._~+/\-]{20,}=*)",
        check: Check::SecretLike,
        source: "HTTP `Authorization: Bearer` credentials (RFC 6750 §2.1)",
    },
    // `KEY=value` and `"key": "value"`: a name that ends in one of these words. Three
    // shapes: quoted values after `=` or `:`; unquoted after `=` (shell, .env, ini);
    // unquoted after `:` at the end of a line (YAML).
    Rule {
        kind: "secret-assignment",
        pattern: r#"(?i)[A-Za-z0-9_.\-]*(?:secret|token|password|passwd|passphrase|api[_\-]?key|access[_\-]?key|private[_\-]?key|auth[_\-]?key|credentials?)["']?[ \t]*(?:=|:=|:|=>)[ \t]*(?:"([^"\s\[]{8,})"|'([^'\s\[]{8,})')"#,
        check: Check::SecretLike,
        source: "assignments whose name says secret, token, password or key (.env files, shell, YAML, JSON, code)",
    },
    Rule {
        kind: "secret-assignment",
        pattern: r#"(?i)[A-Za-z0-9_.\-]*(?:secret|token|password|passwd|passphrase|api[_\-]?key|access[_\-]?key|private[_\-]?key|auth[_\-]?key|credentials?)[ \t]*=[ \t]*([^\s"'`,;()\[\]{}<>|&]{8,})"#,
        check: Check::SecretLike,
        source: "assignments whose name says secret, token, password or key (.env files, shell, YAML, JSON, code)",
    },
    Rule {
        kind: "secret-assignment",
        pattern: r#"(?im)^[ \t\-]*[A-Za-z0-9_.\-]*(?:secret|token|password|passwd|passphrase|api[_\-]?key|access[_\-]?key|private[_\-]?key|auth[_\-]?key|credentials?):[ \t]+([^\s"'`,;()\[\]{}<>|&]{8,})[ \t]*\r?$"#,
        check: Check::SecretLike,
        source: "assignments whose name says secret, token, password or key (.env files, shell, YAML, JSON, code)",
    },
];

/// A JSON object key whose value is a secret by its name (`"api_key": "…"`,
/// `"client_secret": "…"`): the same words as the assignments above, the whole key.
pub(crate) const SECRET_KEY_NAME: &str = r"(?i)^[A-Za-z0-9_.\-]*(?:secret|token|password|passwd|passphrase|api[_\-]?key|access[_\-]?key|private[_\-]?key|auth[_\-]?key|credentials?)$";

/// Values that stand for a secret rather than being one.
pub(crate) fn is_placeholder(v: &str) -> bool {
    let first = v.chars().next().unwrap_or(' ');
    if matches!(first, '$' | '<' | '{' | '%' | '[' | '(' | '*' | '#' | '.') || v.contains("{{") {
        return true;
    }
    // One character repeated (`xxxxxxxx`, `********`).
    if v.chars().all(|c| c == first) {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    const WORDS: &[&str] = &[
        "password",
        "passwd",
        "pass",
        "secret",
        "token",
        "changeme",
        "change_me",
        "redacted",
        "placeholder",
        "null",
        "none",
        "undefined",
    ];
    const PARTS: &[&str] = &[
        "your_", "your-", "yourpass", "example", "xxxx", "...", "\u{2026}",
    ];
    WORDS.contains(&lower.as_str()) || PARTS.iter().any(|p| lower.contains(p))
}

/// Shaped like a secret rather than a name: a digit and a letter, or 20 characters and
/// more with both cases.
pub(crate) fn is_secret_like(v: &str) -> bool {
    if is_placeholder(v) {
        return false;
    }
    let digit = v.bytes().any(|b| b.is_ascii_digit());
    let alpha = v.bytes().any(|b| b.is_ascii_alphabetic());
    let upper = v.bytes().any(|b| b.is_ascii_uppercase());
    let lower = v.bytes().any(|b| b.is_ascii_lowercase());
    let dotted_path = v.contains('.') && !digit;
    (digit && alpha) || (v.len() >= 20 && upper && lower && !dotted_path)
}
