//! `halite.toml`: which files are checked, which rules run, and how severe
//! they are, per path.
//!
//! ```toml
//! exclude = ["vendor", "**/*.generated.tf"]
//!
//! [rules]
//! interpolation-only = "off"
//! legacy-index = "error"
//!
//! [[overrides]]
//! paths = ["legacy/**", "vendor/*.tf"]
//! rules = { attribute-splat = "off" }
//! ```
//!
//! An application's own configuration language is declared by a
//! `[[dialect]]` table: its name, the files it claims (globs as above) and
//! its schema file (relative to the configuration's directory), which the
//! host reads (`dialects::schema_file`):
//!
//! ```toml
//! [[dialect]]
//! name = "build"
//! files = ["*.hcl"]
//! schema = "build.schema.hcl"
//! ```
//!
//! Each rule's level is `"off"`, `"warn"` or `"error"`. `[rules]` applies to
//! every file; each `[[overrides]]` entry applies to the files its globs
//! match (relative to the directory of `halite.toml`, `/` separated, a
//! leading `./` or `/` ignored; `*` stays within a directory, `**` crosses
//! them; a trailing `/` ignored), later entries winning over earlier ones:
//! a glob matches a file when it matches its path or one of its
//! directories, so `legacy`, `legacy/` and `legacy/**` name the same files.
//! `exclude` lists globs of the same kind: a file is not checked when one
//! matches.
//!
//! A file's configuration is the nearest `halite.toml` in its directory or
//! above, up to the repository's root (the directory with `.git`), which
//! extends the next one above it, and so on up to the root or to a file
//! with `root = true` ([`ConfigChain`]): a nested file inherits its
//! parents' settings and overrides what it sets itself (its `[rules]` and
//! overrides apply after theirs; excludes add up). ruff's `extend` is the
//! model, except that extending is implicit: a nested configuration rarely
//! means to drop the repository's, and `root = true` says when it does.
//!
//! Mistakes are errors that name the file, line and column of the bad key
//! or value: an unknown table or key, an unknown rule, a level that is not
//! one of the three, a glob that does not parse.

use std::{borrow::Cow, collections::BTreeMap, fmt};

use camino::{Utf8Path, Utf8PathBuf};
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use toml::Spanned;

use crate::{Diagnostic, LineIndex, Severity, rules};

/// The configuration file's name.
pub const CONFIG_FILE_NAME: &str = "halite.toml";

/// What a configuration may set a rule to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Off,
    Warn,
    Error,
}

impl Level {
    fn parse(text: &str) -> Option<Level> {
        match text {
            "off" => Some(Level::Off),
            "warn" => Some(Level::Warn),
            "error" => Some(Level::Error),
            _ => None,
        }
    }
}

/// The level of each rule for one file, where the configuration sets one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleLevels {
    levels: BTreeMap<&'static str, Level>,
}

impl RuleLevels {
    pub fn set(&mut self, code: &'static str, level: Level) {
        self.levels.insert(code, level);
    }

    pub fn get(&self, code: &str) -> Option<Level> {
        self.levels.get(code).copied()
    }

    /// The diagnostics as configured: a rule set to `off` drops its
    /// diagnostics, `warn` and `error` set their severity. Syntax errors are
    /// not rules and pass unchanged; when no diagnostic's level is set, the
    /// diagnostics are returned as they are, not copied.
    pub fn apply<'a>(&self, diagnostics: &'a [Diagnostic]) -> Cow<'a, [Diagnostic]> {
        if self.levels.is_empty() || !diagnostics.iter().any(|it| self.levels.contains_key(it.code)) {
            return Cow::Borrowed(diagnostics);
        }
        diagnostics
            .iter()
            .filter_map(|diagnostic| {
                let severity = match self.get(diagnostic.code) {
                    None => return Some(diagnostic.clone()),
                    Some(Level::Off) => return None,
                    Some(Level::Warn) => Severity::Warning,
                    Some(Level::Error) => Severity::Error,
                };
                Some(Diagnostic { severity, ..diagnostic.clone() })
            })
            .collect()
    }
}

/// A parsed `halite.toml`.
#[derive(Debug, Clone)]
pub struct Config {
    /// The directory holding the file; override globs are relative to it.
    root: Utf8PathBuf,
    /// `root = true`: the configuration does not extend the one above it.
    is_root: bool,
    rules: RuleLevels,
    overrides: Vec<Override>,
    exclude: GlobSet,
    dialects: Vec<DialectDeclaration>,
}

/// A `[[dialect]]` table: an application's language, the files it claims
/// and where its schema is.
#[derive(Debug, Clone)]
pub struct DialectDeclaration {
    pub name: String,
    /// The globs as written, for what identifies the declaration (a
    /// cache's key).
    pub patterns: Vec<String>,
    files: GlobSet,
    /// The configuration's directory, which the globs and `schema` are
    /// relative to.
    root: Utf8PathBuf,
    /// The schema file's path: the configuration's directory joined with
    /// what is written.
    pub schema: Utf8PathBuf,
    /// The configuration file, and where in it `schema` is written (line
    /// and column), for an error about the schema file as a whole.
    pub config: Utf8PathBuf,
    pub schema_position: (u32, u32),
}

impl DialectDeclaration {
    /// Whether the file at `path` (absolute, or relative to the same
    /// directory as the configuration's own path) is one the dialect
    /// claims: under the configuration's directory, matched by a glob.
    pub fn claims(&self, path: &Utf8Path) -> bool {
        path.strip_prefix(&self.root).is_ok_and(|relative| self.files.is_match(relative.as_std_path()))
    }
}

#[derive(Debug, Clone)]
struct Override {
    paths: GlobSet,
    rules: RuleLevels,
}

/// A mistake in a configuration file, or a file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: Utf8PathBuf,
    /// 1-based line and column, when the mistake has a place in the file.
    pub position: Option<(u32, u32)>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, column)) => write!(f, "{}:{line}:{column}: {}", self.path, self.message),
            None => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for ConfigError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    root: bool,
    #[serde(default)]
    exclude: Vec<Spanned<String>>,
    #[serde(default)]
    rules: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    overrides: Vec<RawOverride>,
    #[serde(default)]
    dialect: Vec<RawDialect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDialect {
    name: String,
    files: Vec<Spanned<String>>,
    schema: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOverride {
    paths: Vec<Spanned<String>>,
    #[serde(default)]
    rules: BTreeMap<Spanned<String>, Spanned<String>>,
}

impl Config {
    /// Reads the configuration text of the file at `path`, whose directory
    /// is the root of the override globs.
    pub fn parse(path: &Utf8Path, text: &str) -> Result<Config, ConfigError> {
        let index = LineIndex::new(text);
        let error_at = |span: Option<std::ops::Range<usize>>, message: String| ConfigError {
            path: path.to_owned(),
            position: span.map(|span| {
                let line_col = index.line_col(syntax::TextSize::try_from(span.start).unwrap_or_default());
                (line_col.line, line_col.column)
            }),
            message,
        };
        let raw: RawConfig = toml::from_str(text)
            .map_err(|error| error_at(error.span(), error.message().trim_end().to_owned()))?;

        let levels = |table: BTreeMap<Spanned<String>, Spanned<String>>| -> Result<RuleLevels, ConfigError> {
            let mut levels = RuleLevels::default();
            for (code, level) in table {
                let Some(rule) = rules::rule(code.get_ref()) else {
                    let hint = match rules::similar_rule(code.get_ref()) {
                        Some(rule) => format!("did you mean `{}`?", rule.code),
                        None => format!("the rules are {}", rule_list()),
                    };
                    return Err(error_at(
                        Some(code.span()),
                        format!("unknown rule `{}`; {hint}", code.get_ref()),
                    ));
                };
                let Some(parsed) = Level::parse(level.get_ref()) else {
                    return Err(error_at(
                        Some(level.span()),
                        format!(
                            "`{}` is not a level for `{}`; write \"off\", \"warn\" or \"error\"",
                            level.get_ref(),
                            rule.code
                        ),
                    ));
                };
                levels.set(rule.code, parsed);
            }
            Ok(levels)
        };

        let globs = |patterns: &[Spanned<String>]| -> Result<GlobSet, ConfigError> {
            let mut globs = GlobSetBuilder::new();
            for pattern in patterns {
                // `./legacy/**` and `/legacy/**` name the same files as
                // `legacy/**`: globs are matched against paths relative to
                // the configuration's directory, which have no such prefix.
                // `legacy/` names the directory as `legacy` does (a
                // directory matches with the files below it; see
                // `matches_path_or_directory`), as `.gitignore` reads it.
                let text = pattern.get_ref().trim_start_matches("./").trim_start_matches('/');
                let text = text.strip_suffix('/').filter(|it| !it.is_empty()).unwrap_or(text);
                let glob = GlobBuilder::new(text).literal_separator(true).build().map_err(|error| {
                    error_at(Some(pattern.span()), format!("invalid glob: {}", error.kind()))
                })?;
                globs.add(glob);
            }
            globs.build().map_err(|error| error_at(None, format!("invalid globs: {error}")))
        };
        let rules = levels(raw.rules)?;
        let mut overrides = Vec::new();
        for raw_override in raw.overrides {
            let paths = globs(&raw_override.paths)?;
            overrides.push(Override { paths, rules: levels(raw_override.rules)? });
        }
        let exclude = globs(&raw.exclude)?;
        let root = path.parent().map(Utf8Path::to_owned).unwrap_or_default();
        let mut dialects = Vec::new();
        for raw_dialect in raw.dialect {
            let files = globs(&raw_dialect.files)?;
            let at = index
                .line_col(syntax::TextSize::try_from(raw_dialect.schema.span().start).unwrap_or_default());
            dialects.push(DialectDeclaration {
                name: raw_dialect.name,
                patterns: raw_dialect.files.iter().map(|it| it.get_ref().clone()).collect(),
                files,
                root: root.clone(),
                schema: root.join(raw_dialect.schema.get_ref()),
                config: path.to_owned(),
                schema_position: (at.line, at.column),
            });
        }
        Ok(Config { root, is_root: raw.root, rules, overrides, exclude, dialects })
    }

    /// Reads the configuration file at `path`.
    pub fn load(path: &Utf8Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError {
            path: path.to_owned(),
            position: None,
            message: format!("cannot read: {error}"),
        })?;
        Config::parse(path, &text)
    }

    /// The nearest `halite.toml` in `dir` or a directory above it, up to
    /// the root of the repository (the first directory with a `.git`), if
    /// any. A configuration outside the repository (in a home directory,
    /// say) is someone else's and does not apply. `dir` should be absolute,
    /// so that the search does not stop at the top of a relative path.
    pub fn find_file(dir: &Utf8Path) -> Option<Utf8PathBuf> {
        for ancestor in dir.ancestors() {
            let candidate = ancestor.join(CONFIG_FILE_NAME);
            if candidate.is_file() {
                return Some(candidate);
            }
            if vfs::is_repository_root(ancestor) {
                return None;
            }
        }
        None
    }

    /// The languages its `[[dialect]]` tables declare, in order.
    pub fn dialects(&self) -> &[DialectDeclaration] {
        &self.dialects
    }

    /// The directory the configuration file is in.
    pub fn root(&self) -> &Utf8Path {
        &self.root
    }

    /// Whether this file says `root = true`: it does not extend the
    /// configuration above it.
    pub fn is_root(&self) -> bool {
        self.is_root
    }

    /// The rule levels for the file at `path` (absolute, or relative to the
    /// same directory as the configuration's own path), by this file alone.
    pub fn levels_for(&self, path: &Utf8Path) -> RuleLevels {
        let mut levels = RuleLevels::default();
        self.set_levels(path, &mut levels);
        levels
    }

    /// Sets in `levels` what this file says of the file at `path`: its
    /// `[rules]`, then its matching overrides in order.
    fn set_levels(&self, path: &Utf8Path, levels: &mut RuleLevels) {
        for (&code, &level) in &self.rules.levels {
            levels.set(code, level);
        }
        let relative = path.strip_prefix(&self.root).unwrap_or(path);
        for override_ in &self.overrides {
            if matches_path_or_directory(&override_.paths, relative) {
                for (&code, &level) in &override_.rules.levels {
                    levels.set(code, level);
                }
            }
        }
    }

    /// Whether this file's `exclude` matches the file at `path` or one of
    /// its directories (below the configuration's own).
    pub fn excludes(&self, path: &Utf8Path) -> bool {
        if self.exclude.is_empty() {
            return false;
        }
        let Ok(relative) = path.strip_prefix(&self.root) else { return false };
        matches_path_or_directory(&self.exclude, relative)
    }
}

/// Whether one of `globs` matches `relative` (a file's path relative to a
/// configuration's directory) or one of its directories: `legacy` (or
/// `legacy/`) names every file below it, as `legacy/**` does.
fn matches_path_or_directory(globs: &GlobSet, relative: &Utf8Path) -> bool {
    relative.ancestors().filter(|it| !it.as_str().is_empty()).any(|it| globs.is_match(it.as_std_path()))
}

/// The configurations that apply in a directory, the outermost first: the
/// nearest `halite.toml` and each it extends (the next one above, up to
/// the repository's root or a file with `root = true`).
#[derive(Debug, Clone, Default)]
pub struct ConfigChain {
    configs: Vec<std::sync::Arc<Config>>,
}

impl ConfigChain {
    /// The chain of `configs`, the outermost first.
    pub fn new(configs: Vec<std::sync::Arc<Config>>) -> ConfigChain {
        ConfigChain { configs }
    }

    /// The rule levels for the file at `path`: each configuration's, the
    /// outermost first, so that a nested one overrides what it sets.
    pub fn levels_for(&self, path: &Utf8Path) -> RuleLevels {
        let mut levels = RuleLevels::default();
        for config in &self.configs {
            config.set_levels(path, &mut levels);
        }
        levels
    }

    /// Whether the levels it gives are the same for every file: no
    /// configuration of it has an override (by path).
    pub fn levels_are_uniform(&self) -> bool {
        self.configs.iter().all(|config| config.overrides.is_empty())
    }

    /// The configurations, the outermost first.
    pub fn configs(&self) -> &[std::sync::Arc<Config>] {
        &self.configs
    }

    /// Whether any configuration of the chain excludes the file at `path`.
    pub fn excludes(&self, path: &Utf8Path) -> bool {
        self.configs.iter().any(|config| config.excludes(path))
    }
}

fn rule_list() -> String {
    rules::RULES.iter().map(|rule| format!("`{}`", rule.code)).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::*;

    fn error(text: &str, expected: Expect) {
        let error = Config::parse(Utf8Path::new("repo/halite.toml"), text).expect_err("a bad configuration");
        expected.assert_eq(&error.to_string());
    }

    #[test]
    fn levels_by_path_later_overrides_winning() {
        let config = Config::parse(
            Utf8Path::new("/repo/halite.toml"),
            r#"
[rules]
interpolation-only = "off"
legacy-index = "error"

[[overrides]]
paths = ["legacy/**"]
rules = { interpolation-only = "warn", attribute-splat = "off" }

[[overrides]]
paths = ["./legacy/strict/*.tf"]
rules = { interpolation-only = "error" }
"#,
        )
        .expect("a good configuration");
        let levels = |path: &str| {
            let levels = config.levels_for(Utf8Path::new(path));
            ["interpolation-only", "legacy-index", "attribute-splat"].map(|code| levels.get(code))
        };
        assert_eq!(levels("/repo/main.tf"), [Some(Level::Off), Some(Level::Error), None]);
        assert_eq!(
            levels("/repo/legacy/a/main.tf"),
            [Some(Level::Warn), Some(Level::Error), Some(Level::Off)]
        );
        assert_eq!(
            levels("/repo/legacy/strict/main.tf"),
            [Some(Level::Error), Some(Level::Error), Some(Level::Off)]
        );
        // `*` stays within a directory.
        assert_eq!(
            levels("/repo/legacy/strict/deeper/main.tf"),
            [Some(Level::Warn), Some(Level::Error), Some(Level::Off)]
        );
        // A file outside the configuration's directory gets only `[rules]`.
        assert_eq!(levels("/elsewhere/legacy/main.tf"), [Some(Level::Off), Some(Level::Error), None]);
    }

    #[test]
    fn the_nearest_file_applies_and_the_search_stops_at_the_repository_root() {
        let temp = tempfile::tempdir().expect("a temporary directory");
        let root = Utf8Path::from_path(temp.path()).expect("a UTF-8 temporary path");
        let repo = root.join("outer/repo");
        std::fs::create_dir_all(repo.join(".git")).expect("mkdir");
        std::fs::create_dir_all(repo.join("modules/net/sub")).expect("mkdir");
        std::fs::create_dir_all(root.join("elsewhere/deep")).expect("mkdir");
        for dir in [root.join("outer"), repo.join("modules/net"), root.to_owned()] {
            std::fs::write(dir.join(CONFIG_FILE_NAME), "").expect("write");
        }
        assert_eq!(
            Config::find_file(&repo.join("modules/net/sub")),
            Some(repo.join("modules/net/halite.toml"))
        );
        // `outer/halite.toml` is outside the repository.
        assert_eq!(Config::find_file(&repo.join("modules")), None);
        assert_eq!(Config::find_file(&root.join("elsewhere/deep")), Some(root.join("halite.toml")));
    }

    /// A directory named alone, with or without a trailing `/`, names the
    /// files below it, in `exclude` and in overrides alike.
    #[test]
    fn a_directory_names_the_files_below_it() {
        let config = Config::parse(
            Utf8Path::new("/repo/halite.toml"),
            "exclude = [\"legacy/\", \"./vendor\"]\n[[overrides]]\npaths = [\"old\"]\nrules = { legacy-index = \"off\" }\n",
        )
        .expect("a good configuration");
        assert!(config.excludes(Utf8Path::new("/repo/legacy/a/main.tf")));
        assert!(config.excludes(Utf8Path::new("/repo/vendor/main.tf")));
        assert!(!config.excludes(Utf8Path::new("/repo/legacy.tf")));
        assert_eq!(
            config.levels_for(Utf8Path::new("/repo/old/x/main.tf")).get("legacy-index"),
            Some(Level::Off)
        );
        assert_eq!(config.levels_for(Utf8Path::new("/repo/new/main.tf")).get("legacy-index"), None);
    }

    #[test]
    fn a_nested_file_extends_its_parents_and_overrides_what_it_sets() {
        let parse = |path: &str, text: &str| {
            std::sync::Arc::new(Config::parse(Utf8Path::new(path), text).expect("a good configuration"))
        };
        let outer = parse(
            "/repo/halite.toml",
            "exclude = [\"vendor\"]\n[rules]\nlegacy-index = \"error\"\ninterpolation-only = \"off\"\n\
             [[overrides]]\npaths = [\"app/legacy/**\"]\nrules = { attribute-splat = \"off\" }\n",
        );
        let inner = parse(
            "/repo/app/halite.toml",
            "exclude = [\"**/*.generated.tf\"]\n[rules]\ninterpolation-only = \"warn\"\n",
        );
        let chain = ConfigChain::new(vec![outer.clone(), inner.clone()]);
        let levels = chain.levels_for(Utf8Path::new("/repo/app/legacy/main.tf"));
        assert_eq!(
            ["legacy-index", "interpolation-only", "attribute-splat"].map(|code| levels.get(code)),
            [Some(Level::Error), Some(Level::Warn), Some(Level::Off)]
        );
        assert!(chain.excludes(Utf8Path::new("/repo/vendor/x/main.tf")));
        assert!(chain.excludes(Utf8Path::new("/repo/app/a/b.generated.tf")));
        assert!(!chain.excludes(Utf8Path::new("/repo/app/main.tf")));
        assert!(!chain.excludes(Utf8Path::new("/repo/vendored.tf")));
        // The parent's exclude is relative to the parent's directory.
        assert!(!ConfigChain::new(vec![inner]).excludes(Utf8Path::new("/repo/app/vendor/main.tf")));
        assert!(!outer.is_root());
        assert!(parse("/repo/x/halite.toml", "root = true\n").is_root());
    }

    #[test]
    fn an_empty_file_configures_nothing() {
        let config = Config::parse(Utf8Path::new("halite.toml"), "").expect("a good configuration");
        assert_eq!(config.levels_for(Utf8Path::new("main.tf")), RuleLevels::default());
    }

    #[test]
    fn apply_drops_and_changes_severities_but_not_syntax_errors() {
        let mut db = db::RootDatabase::new();
        let file = db.set_file_text("main.tf", "");
        let range = syntax::TextRange::default();
        let diagnostics = [
            Diagnostic::warning("interpolation-only", "a", file, range),
            Diagnostic::warning("legacy-index", "b", file, range),
            Diagnostic::error("invalid-character", "c", file, range),
            Diagnostic::warning("attribute-splat", "d", file, range),
        ];
        let mut levels = RuleLevels::default();
        levels.set("interpolation-only", Level::Off);
        levels.set("legacy-index", Level::Error);
        let applied: Vec<_> = levels.apply(&diagnostics).iter().map(|it| (it.code, it.severity)).collect();
        assert_eq!(
            applied,
            [
                ("legacy-index", Severity::Error),
                ("invalid-character", Severity::Error),
                ("attribute-splat", Severity::Warning)
            ]
        );
    }

    #[test]
    fn a_dialect_table_claims_files_by_glob_under_its_directory() {
        let config = Config::parse(
            Utf8Path::new("/repo/build/halite.toml"),
            "[[dialect]]\nname = \"build\"\nfiles = [\"*.hcl\", \"targets/**/*.hcl\"]\nschema = \"schema/build.hcl\"\n",
        )
        .expect("a configuration");
        let [dialect] = config.dialects() else { panic!("one dialect: {:?}", config.dialects()) };
        assert_eq!(dialect.name, "build");
        assert_eq!(dialect.schema, "/repo/build/schema/build.hcl");
        assert_eq!(dialect.schema_position, (4, 10));
        assert!(dialect.claims(Utf8Path::new("/repo/build/app.hcl")));
        assert!(dialect.claims(Utf8Path::new("/repo/build/targets/a/b.hcl")));
        assert!(!dialect.claims(Utf8Path::new("/repo/build/schema/build.hcl")));
        assert!(!dialect.claims(Utf8Path::new("/repo/other/app.hcl")));
        assert!(!dialect.claims(Utf8Path::new("/repo/build/main.tf")));
        error(
            "[[dialect]]\nname = \"build\"\nfiles = [\"[\"]\nschema = \"s.hcl\"\n",
            expect!["repo/halite.toml:3:10: invalid glob: unclosed character class; missing ']'"],
        );
    }

    #[test]
    fn mistakes_name_the_place() {
        error(
            "[rules]\ninterpolation-only = \"off\"\nlegacy-idx = \"off\"\n",
            expect!["repo/halite.toml:3:1: unknown rule `legacy-idx`; did you mean `legacy-index`?"],
        );
        error(
            "[rules]\nno-such-rule = \"off\"\n",
            expect![
                "repo/halite.toml:2:1: unknown rule `no-such-rule`; the rules are `interpolation-only`, `quoted-type-constraint`, `legacy-index`, `attribute-splat`, `undeclared-reference`, `unknown-attribute`, `duplicate-declaration`, `unused-declaration`, `reference-cycle`, `type-mismatch`, `invalid-index`, `unknown-function`, `wrong-argument-count`, `evaluation-error`, `unsupported-module-argument`, `missing-module-argument`, `unused-input`, `missing-input`, `nested-include`, `file-not-found`, `invalid-type-constraint`, `missing-variable`, `invalid-variable-value`, `unsupported-argument`, `unsupported-block`, `misplaced-block`, `missing-argument`, `missing-block`, `wrong-label-count`, `duplicate-block`, `conflicting-arguments`, `out-of-context-reference`, `invalid-address`, `invalid-json-body`, `invalid-ignore`"
            ],
        );
        error(
            "[rules]\ninterpolation-only = \"warning\"\n",
            expect![[
                r#"repo/halite.toml:2:22: `warning` is not a level for `interpolation-only`; write "off", "warn" or "error""#
            ]],
        );
        error(
            "[rule]\ninterpolation-only = \"off\"\n",
            expect![[
                r#"repo/halite.toml:1:2: unknown field `rule`, expected one of `root`, `exclude`, `rules`, `overrides`, `dialect`"#
            ]],
        );
        error(
            "[[overrides]]\npaths = [\"legacy/[\"]\n",
            expect![[r#"repo/halite.toml:2:10: invalid glob: unclosed character class; missing ']'"#]],
        );
        error(
            "[[overrides]]\nrules = { legacy-index = \"off\" }\n",
            expect![[r#"repo/halite.toml:1:1: missing field `paths`"#]],
        );
        error(
            "[[overrides]]\npaths = [\"a/**\"]\nrule = { legacy-index = \"off\" }\n",
            expect![[r#"repo/halite.toml:3:1: unknown field `rule`, expected `paths` or `rules`"#]],
        );
        error(
            "[rules]\nlegacy-index = 1\n",
            expect![[r#"repo/halite.toml:2:16: invalid type: integer `1`, expected a string"#]],
        );
        error("[rules\n", expect![[r#"repo/halite.toml:1:7: unclosed table, expected `]`"#]]);
    }
}
