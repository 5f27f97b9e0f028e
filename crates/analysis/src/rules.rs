//! The registry of lint rules: every rule's stable code, default severity
//! and one-line description.
//!
//! Syntax errors have codes too (they come from `syntax::SyntaxError`), but
//! they are not rules: a file that does not parse cannot be configured into
//! parsing, so they are always errors and cannot be switched off. Only the
//! rules listed here can be switched off, made errors or made warnings by a
//! `halite.toml`, and silenced by a `# halite-ignore: CODE` comment.
//!
//! A new rule is one entry in [`RULES`] and one function in `lints.rs` (or,
//! for the rules that need the module model, wherever they are computed);
//! the registry is what the configuration validates names against and what
//! SARIF output lists as the tool's rules.

use crate::Severity;

/// A lint rule as users see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The stable, kebab-case code diagnostics carry, configuration and
    /// ignore comments name.
    pub code: &'static str,
    /// The severity when no configuration says otherwise.
    pub default_severity: Severity,
    /// One sentence: what the rule finds (SARIF's `shortDescription`).
    pub summary: &'static str,
    /// Why it matters and what to do instead (SARIF's `fullDescription`).
    pub explanation: &'static str,
}

/// Every lint rule, in the order they are documented.
pub static RULES: &[Rule] = &[
    Rule {
        code: INTERPOLATION_ONLY,
        default_severity: Severity::Warning,
        summary: "A string that is only one interpolation, such as \"${var.name}\".",
        explanation: "HCL 1 and Terraform 0.11 needed every expression wrapped in \"${…}\"; since \
                      HCL 2 the expression stands on its own, and Terraform deprecates the wrapped \
                      form. Write the inner expression without quotes.",
    },
    Rule {
        code: QUOTED_TYPE_CONSTRAINT,
        default_severity: Severity::Warning,
        summary: "A variable's type constraint written as a string, such as type = \"string\" (an error in \
                  Terraform's files).",
        explanation: "Terraform 0.11 needed type constraints in quotes and accepted only \
                      \"string\", \"list\" and \"map\"; Terraform 0.12 to 0.14 accepted the quoted \
                      form with a deprecation warning, and later releases reject it. Write the type \
                      as a type expression: string, list(string), map(string). An error in \
                      Terraform's files, as terraform validate reports it; a warning in others \
                      (Packer still reads the quoted form). `halite check --fix` rewrites it.",
    },
    Rule {
        code: LEGACY_INDEX,
        default_severity: Severity::Warning,
        summary: "An index written as an attribute, such as list.0.",
        explanation: "The .N index form exists in HCL 2 only for compatibility with HIL \
                      (Terraform 0.11); the native form is list[0], which also takes expressions.",
    },
    Rule {
        code: ATTRIBUTE_SPLAT,
        default_severity: Severity::Warning,
        summary: "The attribute-only splat .*, such as list.*.id.",
        explanation: "The attribute-only splat is kept in HCL 2 for compatibility with HIL; it \
                      applies only the .name accessors after it, and an index after them applies to \
                      the whole result, which surprises readers. The full splat [*] applies every \
                      accessor after it to each element.",
    },
    Rule {
        code: UNDECLARED_REFERENCE,
        default_severity: Severity::Error,
        summary: "A reference to a variable, local value or block the module does not declare.",
        explanation: "var.NAME needs a variable block, local.NAME an entry in a locals block, and \
                      TYPE.LABEL a block of that type and label, in one of the module's files (a \
                      directory's files are one module). Usually a misspelling: the diagnostic \
                      suggests the closest declared name. Only roots the module declares or its tool \
                      is known to have are checked; others may come from the application.",
    },
    Rule {
        code: UNKNOWN_ATTRIBUTE,
        default_severity: Severity::Error,
        summary: "A reference to an attribute that the referenced object does not have.",
        explanation: "Reported where that is known from the configuration alone: an object built \
                      from literals (local.settings.nmae), or a block the file's dialect says has \
                      only the attributes written. Blocks of tools without a dialect (Packer, \
                      Nomad, Terragrunt, applications) may have attributes computed elsewhere, and \
                      are not checked.",
    },
    Rule {
        code: DUPLICATE_DECLARATION,
        default_severity: Severity::Error,
        summary: "A variable, local value, attribute or block declared twice in one configuration.",
        explanation: "Names must be unique within a module: the second declaration would silently \
                      hide the first. Rename or remove one. Blocks count only for the types a tool \
                      keys by their labels (Terraform's resource, data, module and output); files of \
                      a directory count together only for tools that read them together (Terraform, \
                      Packer).",
    },
    Rule {
        code: UNUSED_DECLARATION,
        default_severity: Severity::Warning,
        summary: "A variable or local value that nothing in the module refers to.",
        explanation: "A declaration nobody reads is dead configuration, or a sign that a reference \
                      was meant to read it and reads something else. Every expression of the module \
                      counts, including references inside function calls, for expressions, splats, \
                      templates and dynamic blocks.",
    },
    Rule {
        code: REFERENCE_CYCLE,
        default_severity: Severity::Error,
        summary: "Values that depend on themselves through a chain of references.",
        explanation: "A value that needs itself has none. The diagnostic names each step of the \
                      cycle; break it by computing one of the steps from something else.",
    },
    Rule {
        code: TYPE_MISMATCH,
        default_severity: Severity::Error,
        summary: "An operation on values of a type it cannot take, known without any input.",
        explanation: "Reported only where every value involved is known from the configuration \
                      (literals and locals built from them); anything that depends on a variable or \
                      on a value the tool computes is left alone.",
    },
    Rule {
        code: INVALID_INDEX,
        default_severity: Severity::Error,
        summary: "An index that a value known without any input does not have.",
        explanation: "Such as the fourth element of a literal tuple of three, or a key a literal \
                      map does not have. Reported only for values known from the configuration.",
    },
    Rule {
        code: UNKNOWN_FUNCTION,
        default_severity: Severity::Error,
        summary: "A call to a function the file's tool does not have.",
        explanation: "Reported only where the tool's functions are all known: applications \
                      register functions of their own, so a generic HCL file is never checked.",
    },
    Rule {
        code: WRONG_ARGUMENT_COUNT,
        default_severity: Severity::Error,
        summary: "A function called with too few or too many arguments.",
        explanation: "Each function takes a fixed number of arguments, or a fixed number followed \
                      by any number of a variadic one.",
    },
    Rule {
        code: EVALUATION_ERROR,
        default_severity: Severity::Error,
        summary: "Another error that evaluating an expression proves without any input.",
        explanation: "A function that rejects its arguments' values (jsondecode of text that is \
                      not JSON), or another error of an expression whose values are all known from \
                      the configuration.",
    },
    Rule {
        code: UNSUPPORTED_MODULE_ARGUMENT,
        default_severity: Severity::Error,
        summary: "An argument of a Terraform module call that the called module has no variable for.",
        explanation: "A module block with a local source passes its arguments to the variables of \
                      the module in that directory; an argument no variable takes is an error for \
                      Terraform. Usually a misspelling: the diagnostic suggests the closest variable.",
    },
    Rule {
        code: MISSING_MODULE_ARGUMENT,
        default_severity: Severity::Error,
        summary: "A Terraform module call that does not set a variable the called module requires.",
        explanation: "A variable without a default must be given by every call of its module.",
    },
    Rule {
        code: UNUSED_INPUT,
        default_severity: Severity::Warning,
        summary: "An input of a Terragrunt unit that the module it deploys has no variable for.",
        explanation: "Terragrunt passes each of a unit's `inputs` to its module as `TF_VAR_NAME`; \
                      Terraform ignores one no variable takes, so the input does nothing. Usually a \
                      misspelling: the diagnostic suggests the closest variable. A warning, as in \
                      Terragrunt's `hcl validate --inputs` without `--strict`.",
    },
    Rule {
        code: MISSING_INPUT,
        default_severity: Severity::Warning,
        summary: "A Terragrunt unit whose inputs leave out a variable its module requires.",
        explanation: "Checked only where the unit lists its inputs and nothing else of the \
                      configuration may add some (no `include`, no `extra_arguments`); the \
                      environment, a variables file or the command line may still set it, which \
                      is why it is a warning.",
    },
    Rule {
        code: NESTED_INCLUDE,
        default_severity: Severity::Error,
        summary: "A file a Terragrunt unit includes that has an include block of its own.",
        explanation: "Terragrunt reads one level of includes: a unit may include files, but a \
                      file it includes may not include another, and the unit fails to parse. \
                      Include both files from the unit, or read the second with \
                      read_terragrunt_config.",
    },
    Rule {
        code: FILE_NOT_FOUND,
        default_severity: Severity::Error,
        summary: "A file a Terragrunt unit reads that does not exist: an include's path, a dependency's configuration, or a file read_terragrunt_config reads.",
        explanation: "Terragrunt stops when an include names a file that does not exist (or \
                      find_in_parent_folders finds none in the directories above the unit), and \
                      when a dependency's config_path has no terragrunt.hcl (unless the dependency \
                      skips its outputs or is disabled), and when read_terragrunt_config reads a \
                      file that does not exist and gives no default. Reported only where the path is known \
                      without evaluation, and not in a unit a stack may generate elsewhere (one \
                      that reads values, or is kept under a units or catalog directory).",
    },
    Rule {
        code: INVALID_TYPE_CONSTRAINT,
        default_severity: Severity::Error,
        summary: "A variable's type that is not a valid type constraint.",
        explanation: "A variable's type is a type expression: string, number, bool, any, or \
                      list(…), set(…), map(…), tuple([…]), object({…}) of them.",
    },
    Rule {
        code: MISSING_VARIABLE,
        default_severity: Severity::Error,
        summary: "A variable with no value and no default, where it is used (halite eval).",
        explanation: "Give it a value with --var or --var-file, or a default.",
    },
    Rule {
        code: INVALID_VARIABLE_VALUE,
        default_severity: Severity::Error,
        summary: "A variable's value or default that does not fit its type constraint.",
        explanation: "The value is converted to the declared type; change the value or the type. \
                      check reports a default that does not convert (Terraform's \"Invalid default \
                      value for variable\"); eval also a value given.",
    },
    Rule {
        code: UNSUPPORTED_ARGUMENT,
        default_severity: Severity::Error,
        summary: "An argument that one of Terraform's own blocks does not have.",
        explanation: "Terraform reads its own blocks (variable, output, terraform, lifecycle, moved, \
                      import, removed, check, …) and the meta-arguments of resources against fixed \
                      schemas, and rejects an argument they do not name, or one it reserves. Usually a \
                      misspelling (defualt, sensitiv): the diagnostic suggests the argument meant. \
                      The arguments a provider defines are not checked: there is no schema for them \
                      offline.",
    },
    Rule {
        code: UNSUPPORTED_BLOCK,
        default_severity: Severity::Error,
        summary: "A nested block that one of Terraform's own blocks does not have.",
        explanation: "As for arguments: a block type the schema does not name, a block in a body of \
                      arguments only (locals, required_providers), or a block type Terraform reserves \
                      (a locals block in a resource). A top-level block type Terraform does not know \
                      is one too.",
    },
    Rule {
        code: MISPLACED_BLOCK,
        default_severity: Severity::Error,
        summary: "A block Terraform knows, in a place it does not take it.",
        explanation: "Such as required_providers outside a terraform block, a postcondition in an \
                      output, or count, for_each or lifecycle in a check block's data source. Move it \
                      where Terraform reads it.",
    },
    Rule {
        code: MISSING_ARGUMENT,
        default_severity: Severity::Error,
        summary: "One of Terraform's own blocks without an argument it requires.",
        explanation: "An output needs value, a module call source, moved from and to, import to and \
                      one of id and identity, a validation or condition block condition and \
                      error_message. Override files may leave them out.",
    },
    Rule {
        code: MISSING_BLOCK,
        default_severity: Severity::Error,
        summary: "A block without a nested block it requires.",
        explanation: "A check block needs at least one assert block, and a dynamic block one content \
                      block that describes each generated block.",
    },
    Rule {
        code: WRONG_LABEL_COUNT,
        default_severity: Severity::Error,
        summary: "A block with more or fewer labels than its type takes.",
        explanation: "variable, output, module, provider and check take one label (the name), \
                      resource, data, ephemeral and action two (type and name), terraform, locals, \
                      moved, import and removed none. Terraform does not read such a block further.",
    },
    Rule {
        code: DUPLICATE_BLOCK,
        default_severity: Severity::Error,
        summary: "A second block of a type that may appear once in its place.",
        explanation: "A resource has at most one lifecycle and one connection block, a provisioner \
                      one connection block, a dynamic block one content block and a check block one \
                      data source. Merge the two.",
    },
    Rule {
        code: CONFLICTING_ARGUMENTS,
        default_severity: Severity::Error,
        summary: "Two arguments of one block that exclude each other.",
        explanation: "count and for_each both say how many instances a resource or module call has; \
                      use one. An import block takes id or identity, not both.",
    },
    Rule {
        code: OUT_OF_CONTEXT_REFERENCE,
        default_severity: Severity::Error,
        summary: "A reference to count, each or self where it has no value.",
        explanation: "count.index exists only in a block with count, each.key and each.value only in \
                      a block with for_each, and self only in a resource's provisioner, connection \
                      and postcondition blocks; elsewhere (a local, an output, the count or \
                      for_each expression itself) terraform validate rejects them.",
    },
    Rule {
        code: INVALID_ADDRESS,
        default_severity: Severity::Error,
        summary: "A moved, import or removed block whose address is not of the kind the block takes.",
        explanation: "A moved block's from and to are both modules (module.a, module.a[0]) or both \
                      resources (aws_instance.a, module.b.aws_instance.a[\"k\"]); an import block's to \
                      is a managed resource; a removed block's from is a module or a resource without \
                      instance keys, and not a data source. Each is a static reference: no function \
                      calls, templates or splats.",
    },
    Rule {
        code: INVALID_JSON_BODY,
        default_severity: Severity::Error,
        summary: "A .tf.json body that does not have the shape Terraform's schema gives it.",
        explanation: "In Terraform's JSON syntax each block type is a property whose value nests one \
                      JSON object per label (resource, then type, then name) around the body's object, \
                      any level an array of such objects. A string or a list of strings where a label \
                      level or a body goes, an argument the block does not have or a required one left \
                      out is reported as HCL's JSON decoder reports it.",
    },
    Rule {
        code: INVALID_IGNORE,
        default_severity: Severity::Warning,
        summary: "A halite-ignore comment that names no codes, or a code that is not a rule.",
        explanation: "An ignore comment must name the rules it silences, as in \
                      # halite-ignore: interpolation-only, so that it never hides a problem it was \
                      not written for; a misspelt code silences nothing.",
    },
];

pub const INTERPOLATION_ONLY: &str = "interpolation-only";
pub const QUOTED_TYPE_CONSTRAINT: &str = "quoted-type-constraint";
pub const LEGACY_INDEX: &str = "legacy-index";
pub const ATTRIBUTE_SPLAT: &str = "attribute-splat";
pub const INVALID_IGNORE: &str = "invalid-ignore";
pub const UNDECLARED_REFERENCE: &str = "undeclared-reference";
pub const UNKNOWN_ATTRIBUTE: &str = "unknown-attribute";
pub const DUPLICATE_DECLARATION: &str = "duplicate-declaration";
pub const UNUSED_DECLARATION: &str = "unused-declaration";
pub const REFERENCE_CYCLE: &str = "reference-cycle";
pub const TYPE_MISMATCH: &str = "type-mismatch";
pub const INVALID_INDEX: &str = "invalid-index";
pub const UNKNOWN_FUNCTION: &str = "unknown-function";
pub const WRONG_ARGUMENT_COUNT: &str = "wrong-argument-count";
pub const EVALUATION_ERROR: &str = "evaluation-error";
pub const UNSUPPORTED_MODULE_ARGUMENT: &str = "unsupported-module-argument";
pub const MISSING_MODULE_ARGUMENT: &str = "missing-module-argument";
pub const UNUSED_INPUT: &str = "unused-input";
pub const MISSING_INPUT: &str = "missing-input";
pub const NESTED_INCLUDE: &str = "nested-include";
pub const FILE_NOT_FOUND: &str = "file-not-found";
pub const INVALID_TYPE_CONSTRAINT: &str = "invalid-type-constraint";
pub const MISSING_VARIABLE: &str = "missing-variable";
pub const INVALID_VARIABLE_VALUE: &str = "invalid-variable-value";

pub const UNSUPPORTED_ARGUMENT: &str = "unsupported-argument";
pub const UNSUPPORTED_BLOCK: &str = "unsupported-block";
pub const MISPLACED_BLOCK: &str = "misplaced-block";
pub const MISSING_ARGUMENT: &str = "missing-argument";
pub const MISSING_BLOCK: &str = "missing-block";
pub const WRONG_LABEL_COUNT: &str = "wrong-label-count";
pub const DUPLICATE_BLOCK: &str = "duplicate-block";
pub const CONFLICTING_ARGUMENTS: &str = "conflicting-arguments";
pub const OUT_OF_CONTEXT_REFERENCE: &str = "out-of-context-reference";
pub const INVALID_ADDRESS: &str = "invalid-address";
pub const INVALID_JSON_BODY: &str = "invalid-json-body";

/// The rule with this code, if there is one.
pub fn rule(code: &str) -> Option<&'static Rule> {
    RULES.iter().find(|rule| rule.code == code)
}

/// The rule whose code is closest to a misspelt `code`, if one is close
/// enough to be what was meant: at most a third of its length in edits
/// (insertions, deletions, substitutions), as in "interpolaton-only".
/// Whether a diagnostic of `code` says what it is about in its notes
/// rather than its message: a module rule's message is its tool's summary
/// word for word (`Reference to undeclared input variable`), and its first
/// note names the instance (`An input variable with the name "q" has not
/// been declared.`), which a format of one line per diagnostic adds. A
/// style lint's message says all there is (`Legacy index syntax `.0``), its
/// notes explain the rule; a syntax error's place says what it is about.
pub fn notes_name_the_subject(code: &str) -> bool {
    match code {
        INTERPOLATION_ONLY
        | QUOTED_TYPE_CONSTRAINT
        | LEGACY_INDEX
        | ATTRIBUTE_SPLAT
        | UNUSED_DECLARATION
        | INVALID_IGNORE => false,
        code => rule(code).is_some(),
    }
}

pub fn similar_rule(code: &str) -> Option<&'static Rule> {
    // Codes are lower case: `LEGACY-INDEX` is `legacy-index` shouted.
    let lower = code.to_ascii_lowercase();
    RULES
        .iter()
        .map(|rule| (strsim::levenshtein(&lower, rule.code), rule))
        .filter(|&(distance, rule)| code != rule.code && distance * 3 <= rule.code.len())
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, rule)| rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelt_codes_find_the_rule_meant() {
        assert_eq!(similar_rule("interpolaton-only").map(|rule| rule.code), Some(INTERPOLATION_ONLY));
        assert_eq!(similar_rule("LEGACY-INDEX").map(|rule| rule.code), Some(LEGACY_INDEX));
        assert_eq!(similar_rule(LEGACY_INDEX), None);
        assert_eq!(similar_rule("legacy-indexes").map(|rule| rule.code), Some(LEGACY_INDEX));
        assert_eq!(similar_rule("attribute_splat").map(|rule| rule.code), Some(ATTRIBUTE_SPLAT));
        assert_eq!(similar_rule("unused-variable"), None);
        assert_eq!(similar_rule(LEGACY_INDEX), None, "an exact code is not a misspelling");
    }

    #[test]
    fn codes_are_unique_and_kebab_case() {
        for (index, rule) in RULES.iter().enumerate() {
            assert!(
                rule.code.bytes().all(|byte| byte.is_ascii_lowercase() || byte == b'-'),
                "{} is not kebab-case",
                rule.code
            );
            assert!(RULES[..index].iter().all(|other| other.code != rule.code), "{} twice", rule.code);
            assert_eq!(self::rule(rule.code), Some(rule));
        }
        assert_eq!(rule("no-such-rule"), None);
    }
}
