//! `halite rule`: what a lint rule finds, why, its default level and how to
//! change it; or, without a code, the list of rules. The rules are the lint
//! registry's ([`analysis::RULES`]); the help composed here is also SARIF's
//! (`sarif.rs`), so a rule reads the same wherever it is explained.

use anyhow::{Result, bail};
use halite::host::Severity;
use serde::Serialize;

use crate::Outcome;

/// A rule's help, as plain text and as Markdown (SARIF's
/// `multiformatMessageString`).
#[derive(Serialize)]
pub(crate) struct Help {
    pub(crate) text: String,
    pub(crate) markdown: String,
}

/// What to tell someone who meets `rule`: what it finds, why it matters,
/// and how to change its level or silence one occurrence.
pub(crate) fn help(rule: &analysis::rules::Rule) -> Help {
    let code = rule.code;
    let (summary, explanation) = (rule.summary, rule.explanation);
    let configure = format!(
        "set its level in halite.toml ([rules] {code} = \"off\", \"warn\" or \"error\"), or silence one \
         line with a `# halite-ignore: {code}` comment on it or alone on the line before"
    );
    Help {
        text: format!("{summary}\n\n{explanation}\n\nTo change it: {configure}."),
        markdown: format!(
            "**{summary}**\n\n{explanation}\n\nTo change it, set its level in `halite.toml`:\n\n\
             ```toml\n[rules]\n{code} = \"off\" # or \"warn\", \"error\"\n```\n\n\
             or silence one line with a `# halite-ignore: {code}` comment on it or alone on the line before."
        ),
    }
}

/// A severity as halite.toml names the level (`"warn"`, not `"warning"`).
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warn",
    }
}

/// What a syntax error's code means, whichever it is.
pub(crate) const SYNTAX_ERROR_HELP: &str = "The file is not valid HCL (or not UTF-8) here; fix it as \
    the message says. A file with syntax errors gets no other diagnostics until it parses. Syntax \
    errors are always errors: halite.toml and halite-ignore comments do not change them.";

/// What `too-many-diagnostics` means, with the limit of this build.
pub(crate) fn too_many_diagnostics_help() -> String {
    format!(
        "Only the first {} diagnostics of a file are reported; this result, at the end of the file, \
         counts the rest. It is an error when any of those is one.",
        crate::limits().max_diagnostics_per_file
    )
}

/// Prints the help of the rule `code`, or the list of rules when there is
/// none. An unknown code is an error (exit 2), with the rule it most likely
/// meant.
pub(crate) fn run(code: Option<&str>) -> Result<Outcome> {
    let Some(code) = code else {
        let width = analysis::RULES.iter().map(|rule| rule.code.len()).max().unwrap_or(0);
        for rule in analysis::RULES {
            println!("{:width$}  {:5}  {}", rule.code, level(rule.default_severity), rule.summary);
        }
        return Ok(Outcome::Clean);
    };
    // Not rules, but codes diagnostics print: said what they are.
    if syntax::SYNTAX_ERROR_CODES.contains(&code) {
        println!("{code} (a syntax error: always an error)\n\n{SYNTAX_ERROR_HELP}");
        return Ok(Outcome::Clean);
    }
    if code == analysis::TOO_MANY_DIAGNOSTICS {
        println!("{code} (an error when any diagnostic it counts is one)\n\n{}", too_many_diagnostics_help());
        return Ok(Outcome::Clean);
    }
    let Some(rule) = analysis::rules::rule(code) else {
        match analysis::rules::similar_rule(code) {
            Some(similar) => bail!("unknown rule `{code}`; did you mean `{}`?", similar.code),
            None => bail!("unknown rule `{code}`; `halite rule` lists them"),
        }
    };
    println!("{} (default level: {})\n\n{}", rule.code, level(rule.default_severity), help(rule).text);
    Ok(Outcome::Clean)
}
