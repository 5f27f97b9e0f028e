//! SARIF 2.1.0 output of `halite check`, for code-scanning services.
//!
//! One run; the tool's rules are the lint registry ([`analysis::RULES`]),
//! each with its help (what it finds, why, and how to switch it off or
//! silence it), followed by the syntax error codes that occur in the
//! results (syntax errors are not configurable rules, but SARIF consumers
//! look every `ruleId` up in the rules), and `too-many-diagnostics` when a
//! file's cap left some out (a result of its own at the file's end,
//! counting them).
//!
//! Locations are relative to the repository's root, the nearest directory
//! at or above the current one with a `.git` (or the current directory
//! outside a repository), through the `%SRCROOT%` base, which
//! `originalUriBaseIds` resolves to that directory's `file:` URI; a file
//! outside it gets an absolute `file:` URI. Lines and columns are 1-based,
//! columns counted in Unicode code points (`columnKind`
//! `unicodeCodePoints`), the same columns as the human and JSON outputs;
//! an end column is the one after the range, as SARIF defines it.
//! Suggestions become `fixes`, each saying in its properties whether it is
//! safe to apply (`applicability`); each result has a `partialFingerprints`
//! entry, `halite/v1`, the fingerprint the GitLab report gives it too.

use std::collections::BTreeMap;

use camino::Utf8PathBuf;
use halite::host::{LineCol, LocatedDiagnostic, Severity};
use serde::Serialize;

use crate::{
    render,
    repository::SourceRoot,
    rule::{Help, help},
};

/// One diagnostic as a SARIF `result`, its positions already resolved
/// (they need the file's line index, which the database has while the
/// file is being checked).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: Message,
    locations: Vec<Location>,
    partial_fingerprints: BTreeMap<&'static str, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<Fix>,
}

#[derive(Serialize)]
struct Message {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize, Clone)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: u32,
    end_line: u32,
    end_column: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Fix {
    description: Message,
    artifact_changes: Vec<ArtifactChange>,
    /// SARIF has no word for whether a fix is safe to apply unreviewed;
    /// a property bag says it as the JSON format does.
    properties: FixProperties,
}

/// Whether `--fix` applies the fix (`safe`) or only `--unsafe-fixes`
/// does (`unsafe`): [`analysis::applicability`] of the diagnostic's code.
#[derive(Serialize)]
struct FixProperties {
    applicability: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange {
    artifact_location: ArtifactLocation,
    replacements: Vec<Replacement>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement {
    deleted_region: Region,
    inserted_content: Content,
}

#[derive(Serialize)]
struct Content {
    text: String,
}

impl SarifResult {
    fn new(located: &LocatedDiagnostic, fingerprint: String, root: &SourceRoot) -> SarifResult {
        let diagnostic = &located.diagnostic;
        let region = |(start, end): (LineCol, LineCol)| Region {
            start_line: start.line,
            start_column: start.column,
            end_line: end.line,
            end_column: end.column,
        };
        let mut edit_positions = located.edits.iter().copied();
        let artifact = artifact_location(root.relative(&located.path).as_str());
        let text = render::message_with_notes(located);
        let fixes = diagnostic
            .suggestions
            .iter()
            .map(|suggestion| Fix {
                description: Message { text: suggestion.message.clone() },
                artifact_changes: vec![ArtifactChange {
                    artifact_location: artifact.clone(),
                    replacements: suggestion
                        .edits
                        .iter()
                        .map(|edit| Replacement {
                            deleted_region: region(edit_positions.next().unwrap_or_default()),
                            inserted_content: Content { text: edit.replacement.clone() },
                        })
                        .collect(),
                }],
                properties: FixProperties {
                    applicability: analysis::applicability(diagnostic.code).as_str(),
                },
            })
            .collect();
        SarifResult {
            rule_id: diagnostic.code,
            rule_index: None,
            level: match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            message: Message { text },
            locations: vec![Location {
                physical_location: PhysicalLocation {
                    artifact_location: artifact,
                    region: region((located.start, located.end)),
                },
            }],
            partial_fingerprints: BTreeMap::from([("halite/v1", fingerprint)]),
            fixes,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportingDescriptor {
    id: &'static str,
    short_description: Message,
    #[serde(skip_serializing_if = "Option::is_none")]
    full_description: Option<Message>,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<Help>,
    default_configuration: Configuration,
}

/// What to tell someone who meets a syntax error: it is not a rule.
fn syntax_help() -> Help {
    let text = crate::rule::SYNTAX_ERROR_HELP;
    Help { text: text.to_owned(), markdown: text.replace("halite.toml", "`halite.toml`") }
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

/// The whole log of every file's diagnostics, files in the order given, as
/// one JSON document.
pub(crate) fn log(files: &[(Utf8PathBuf, Vec<LocatedDiagnostic>)], root: &SourceRoot) -> String {
    let mut results: Vec<SarifResult> = Vec::new();
    for (_, diagnostics) in files {
        for (located, fingerprint) in diagnostics.iter().zip(render::fingerprints(diagnostics, root)) {
            results.push(SarifResult::new(located, fingerprint, root));
        }
    }
    let mut rules: Vec<ReportingDescriptor> = analysis::RULES
        .iter()
        .map(|rule| ReportingDescriptor {
            id: rule.code,
            short_description: Message { text: rule.summary.to_owned() },
            full_description: Some(Message { text: rule.explanation.to_owned() }),
            help: Some(help(rule)),
            default_configuration: Configuration { level: rule.default_severity.as_str() },
        })
        .collect();
    // Syntax error codes, described by the first message seen with each;
    // a BTreeMap so that the order does not depend on the files'.
    let mut syntax_codes: BTreeMap<&'static str, String> = BTreeMap::new();
    for result in &results {
        if analysis::rules::rule(result.rule_id).is_none() {
            syntax_codes
                .entry(result.rule_id)
                .or_insert_with(|| result.message.text.lines().next().unwrap_or_default().to_owned());
        }
    }
    for (code, message) in syntax_codes {
        let descriptor = if code == analysis::TOO_MANY_DIAGNOSTICS {
            ReportingDescriptor {
                id: code,
                short_description: Message { text: "Too many diagnostics in one file".to_owned() },
                full_description: Some(Message { text: crate::rule::too_many_diagnostics_help() }),
                help: None,
                default_configuration: Configuration { level: "error" },
            }
        } else {
            ReportingDescriptor {
                id: code,
                short_description: Message { text: format!("Syntax error: {message}") },
                full_description: None,
                help: Some(syntax_help()),
                default_configuration: Configuration { level: "error" },
            }
        };
        rules.push(descriptor);
    }
    let index_of: BTreeMap<&str, usize> =
        rules.iter().enumerate().map(|(index, rule)| (rule.id, index)).collect();
    for result in &mut results {
        result.rule_index = index_of.get(result.rule_id).copied();
    }

    let information_uri = option_env!("CARGO_PKG_REPOSITORY").filter(|uri| !uri.is_empty());
    let log = SarifLog {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "halite",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    information_uri,
                    rules,
                },
            },
            original_uri_base_ids: root.root().map(|root| {
                let mut uri = artifact_location(root.as_str()).uri;
                if !uri.ends_with('/') {
                    uri.push('/');
                }
                // A base is an absolute URI ending in `/`, as SARIF requires.
                BTreeMap::from([("%SRCROOT%", ArtifactLocation { uri, uri_base_id: None })])
            }),
            column_kind: "unicodeCodePoints",
            results,
        }],
    };
    // Serializing strings, numbers and the structures above cannot fail.
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

/// The log's top level, fields in the order SARIF's examples use (serde
/// keeps a struct's order; a `serde_json::Value` would sort them).
#[derive(Serialize)]
struct SarifLog {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    #[serde(skip_serializing_if = "Option::is_none")]
    original_uri_base_ids: Option<BTreeMap<&'static str, ArtifactLocation>>,
    column_kind: &'static str,
    results: Vec<SarifResult>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    /// The project's address, once the package declares one; SARIF requires
    /// a valid URI here, so nothing is better than a made-up one.
    #[serde(skip_serializing_if = "Option::is_none")]
    information_uri: Option<&'static str>,
    rules: Vec<ReportingDescriptor>,
}

/// A file's path as a SARIF artifact location: a relative path is a URI
/// reference relative to `%SRCROOT%` (the directory the check ran in); an
/// absolute one is a `file:` URI of its own.
fn artifact_location(path: &str) -> ArtifactLocation {
    let path = path.replace('\\', "/");
    if let Some(rest) = path.strip_prefix('/') {
        ArtifactLocation { uri: format!("file:///{}", percent_encode(rest)), uri_base_id: None }
    } else {
        ArtifactLocation { uri: percent_encode(&path), uri_base_id: Some("%SRCROOT%") }
    }
}

/// Percent-encodes every byte of `path` that may not stand for itself in a
/// URI path (RFC 3986: unreserved characters, `/` and the sub-delimiters
/// stay), so that names with spaces or non-ASCII letters are valid URIs.
fn percent_encode(path: &str) -> String {
    let mut encoded = String::with_capacity(path.len());
    for byte in path.bytes() {
        let keep = byte.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=@".contains(&byte);
        if keep {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references() {
        let relative = artifact_location("modules/my net/main.tf");
        assert_eq!(relative.uri, "modules/my%20net/main.tf");
        assert_eq!(relative.uri_base_id, Some("%SRCROOT%"));
        let absolute = artifact_location("/srv/é.tf");
        assert_eq!(absolute.uri, "file:///srv/%C3%A9.tf");
        assert_eq!(absolute.uri_base_id, None);
        assert_eq!(artifact_location("a:b#c?.tf").uri, "a%3Ab%23c%3F.tf");
    }

    #[test]
    fn each_fix_says_whether_it_is_safe_to_apply() {
        use analysis::{Edit, Suggestion};
        use halite::host::{Diagnostic, RootDatabase};
        use syntax::TextRange;

        let mut db = RootDatabase::new();
        let file = db.set_file_text("main.tf", "a = \"${b}\"\n");
        let range = TextRange::new(4.into(), 10.into());
        let suggestion = |message: &str| Suggestion {
            message: message.to_owned(),
            edits: vec![Edit { range, replacement: "b".to_owned() }],
        };
        // An interpolation unwrapped means the same; a did-you-mean may not.
        let unwrap = Diagnostic::warning("interpolation-only", "Interpolation-only expression", file, range)
            .with_suggestion(suggestion("unwrap"));
        let guess = Diagnostic::error("undeclared-reference", "Reference to undeclared value", file, range)
            .with_suggestion(suggestion("did you mean `b`?"));
        let at = |line, column| LineCol { line, column };
        let located = |diagnostic| LocatedDiagnostic {
            path: "main.tf".into(),
            start: at(1, 5),
            end: at(1, 11),
            edits: vec![(at(1, 5), at(1, 11))],
            diagnostic,
        };
        let text = log(
            &[("main.tf".into(), vec![located(unwrap), located(guess)])],
            &SourceRoot::fixed("/repo", "/repo"),
        );
        let log: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let applicability =
            |result: usize| &log["runs"][0]["results"][result]["fixes"][0]["properties"]["applicability"];
        assert_eq!(applicability(0), "safe", "{text}");
        assert_eq!(applicability(1), "unsafe", "{text}");
    }
}
