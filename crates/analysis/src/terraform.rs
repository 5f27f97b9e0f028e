//! Terraform's schemas for its own blocks: what `terraform validate` says
//! about a configuration file before any provider is asked.
//!
//! Terraform reads a configuration file's top level, and each of the blocks
//! it defines itself (`terraform`, `variable`, `output`, `module`,
//! `locals`, `provider`, `moved`, `import`, `removed`, `check`, `action`,
//! and the meta-arguments of `resource`, `data` and `ephemeral`:
//! `lifecycle`, `provisioner`, `connection`, `dynamic`), against fixed
//! schemas, with HCL's own summaries ("Unsupported argument", "Missing
//! required argument", …) and a few of its own ("Duplicate lifecycle
//! block", `Invalid combination of "count" and "for_each"`). This module
//! holds those schemas as data ([`Schema`]) and checks a native file's
//! tree against them, one [`SchemaProblem`] per finding; its rule code is
//! decided by its kind ([`SchemaProblem::rule_code`]).
//!
//! What a provider defines (a resource's own arguments and blocks, a
//! provider's configuration, a backend's) has no schema offline and is not
//! checked; only the `dynamic` blocks inside it are, since their shape is
//! HCL's. Override files (`override.tf`, `*_override.tf`) may leave out
//! required arguments, as Terraform lets them.
//!
//! Written from Terraform's behaviour (its `internal/configs` package) as
//! a specification; the wording of summaries and details is Terraform's, so
//! that a user comparing with `terraform validate` sees the same words.

use db::{
    Db, File,
    module::{self, Address, Module, ModuleDiagnostic, ModuleDiagnosticKind, references},
};
use smol_str::SmolStr;
use syntax::{AstNode, SyntaxToken, TextRange, ast};

use crate::{Diagnostic, LineIndex, rules};

/// A finding about the shape of one of Terraform's own blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaProblem {
    /// An argument the block's schema does not have.
    UnsupportedArgument { name: SmolStr, suggestion: Option<NameSuggestion> },
    /// A nested block type the block's schema does not have.
    UnsupportedBlockType { name: SmolStr, suggestion: Option<NameSuggestion> },
    /// A block in a body of arguments only (`locals`, `required_providers`).
    BlockNotAllowed { name: SmolStr },
    /// A name Terraform keeps for a later version (`count` in a provider
    /// block, a `locals` block in a resource).
    Reserved { name: SmolStr, owner: &'static str, is_block: bool },
    /// A block valid elsewhere but not here.
    Misplaced(Misplaced),
    /// A required argument left out.
    MissingArgument { name: &'static str },
    /// A block with more labels than its type takes.
    ExtraneousLabel { block_type: SmolStr, label_names: &'static [&'static str] },
    /// A block with fewer labels than its type takes.
    MissingLabel { block_type: SmolStr, label_names: &'static [&'static str], missing: usize },
    /// A second block of a type that may appear once; `first` is where the
    /// first one is, as Terraform writes a range (`main.tf:3,3-12`).
    DuplicateBlock { block_type: SmolStr, owner: &'static str, first: String },
    /// A second `run` block of the same name in a test file; `first` is
    /// where the first is, as Terraform writes a range.
    DuplicateRunName { name: SmolStr, first: String },
    /// `count` and `for_each` in one block.
    CountAndForEach,
    /// An `import` block with neither `id` nor `identity`, or both.
    ImportIdentity { both: bool },
    /// A `check` block without an `assert` block.
    ZeroAssertBlocks,
    /// A second data source in one `check` block; `first` is where the
    /// first is, as Terraform writes a range.
    SecondCheckData { first: String },
    /// A `dynamic` block without a `content` block, or with two.
    DynamicContent { extraneous: bool },
    /// A `moved`, `import` or `removed` block's address that is not one of
    /// the kind the block takes.
    InvalidAddress(AddressProblem),
    /// A second block of a kind a module has once, in any of its files;
    /// `first` is where the first is, as Terraform writes a range.
    SecondInModule { kind: ModuleSingleton, first: String },
    /// A second configuration of one provider with the same alias (or
    /// none) in a module.
    DuplicateProvider { name: SmolStr, alias: Option<SmolStr>, first: String },
    /// A `.tf.json` body that does not have the shape Terraform's schema
    /// gives it, in HCL's JSON decoder's words: a value of the wrong JSON
    /// type where a block's labels or body go, a name the schema does not
    /// have, a required argument left out.
    JsonBody { summary: String, detail: String },
}

/// The blocks a module has at most one of, across its files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModuleSingleton {
    Backend,
    StateStore,
    Cloud,
    RequiredProviders,
}

/// What is wrong with the address of a `moved` block's `from` or `to`, an
/// `import` block's `to` or a `removed` block's `from`, in Terraform's
/// words (its `addrs` package's parsers, which these blocks' decoders call
/// before any provider is asked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressProblem {
    /// Not a traversal with constant keys (a call, a template, a splat).
    NotStatic,
    /// `module.` followed by no name, or by a key.
    ModuleName,
    /// A reserved root (`var`, `local`, `each`, …) where a resource type
    /// goes.
    ReservedKeyword { keyword: &'static str },
    /// A resource type without its name (`aws_instance`).
    TypeAndName,
    /// A key in something other than brackets (`aws_instance.a.b`).
    KeyNotInBrackets,
    /// More steps after a resource's key.
    ExtraOperators,
    /// A key or splat where a module prefix wants `.NAME`.
    ModuleStep,
    /// A resource type followed by a key, not its name.
    ResourceName,
    /// A module's key where `removed` wants a module (`module.a[0]`).
    ModuleInstanceKey,
    /// A resource's key where `removed` wants a resource (`a.b[0]`).
    ResourceInstanceKey,
    /// A data source where `removed` wants something that can be destroyed.
    DataSourceRemoved,
    /// A module where `import` wants a resource.
    ModuleNotResource,
    /// A data or ephemeral resource where `import` wants a managed one.
    NotManaged,
    /// A `moved` block from a module to a resource, or back.
    MovedKinds,
}

/// What a misspelt name may have been meant as (HCL's did-you-mean).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameSuggestion {
    /// A name of the schema within two edits.
    Name(SmolStr),
    /// An argument named as one of the schema's block types: written
    /// without its block.
    BlockOfType,
    /// A block named as one of the schema's arguments: written without an
    /// equals sign.
    Argument,
}

/// Blocks that Terraform knows but not where they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misplaced {
    /// `required_providers` at the top level, outside `terraform`.
    RequiredProviders,
    /// A `postcondition` in an `output` block.
    OutputPostcondition,
    /// `count` or `for_each` in a `check` block's data source.
    NestedDataRepetition { for_each: bool },
    /// A `lifecycle` block in a `check` block's data source.
    NestedDataLifecycle,
}

impl SchemaProblem {
    /// The rule code of this kind of problem.
    pub fn rule_code(&self) -> &'static str {
        match self {
            SchemaProblem::UnsupportedArgument { .. } => rules::UNSUPPORTED_ARGUMENT,
            SchemaProblem::Reserved { is_block: false, .. } => rules::UNSUPPORTED_ARGUMENT,
            SchemaProblem::UnsupportedBlockType { .. }
            | SchemaProblem::BlockNotAllowed { .. }
            | SchemaProblem::Reserved { is_block: true, .. } => rules::UNSUPPORTED_BLOCK,
            SchemaProblem::Misplaced(_) => rules::MISPLACED_BLOCK,
            SchemaProblem::MissingArgument { .. } | SchemaProblem::ImportIdentity { both: false } => {
                rules::MISSING_ARGUMENT
            }
            SchemaProblem::ZeroAssertBlocks | SchemaProblem::DynamicContent { extraneous: false } => {
                rules::MISSING_BLOCK
            }
            SchemaProblem::ExtraneousLabel { .. } | SchemaProblem::MissingLabel { .. } => {
                rules::WRONG_LABEL_COUNT
            }
            SchemaProblem::DuplicateBlock { .. }
            | SchemaProblem::DuplicateRunName { .. }
            | SchemaProblem::SecondCheckData { .. }
            | SchemaProblem::DynamicContent { extraneous: true } => rules::DUPLICATE_BLOCK,
            SchemaProblem::CountAndForEach | SchemaProblem::ImportIdentity { both: true } => {
                rules::CONFLICTING_ARGUMENTS
            }
            SchemaProblem::InvalidAddress(_) => rules::INVALID_ADDRESS,
            SchemaProblem::SecondInModule { .. } | SchemaProblem::DuplicateProvider { .. } => {
                rules::DUPLICATE_BLOCK
            }
            SchemaProblem::JsonBody { .. } => rules::INVALID_JSON_BODY,
        }
    }

    /// Terraform's one-line summary.
    pub fn summary(&self) -> String {
        match self {
            SchemaProblem::UnsupportedArgument { .. } => "Unsupported argument".into(),
            SchemaProblem::UnsupportedBlockType { .. } => "Unsupported block type".into(),
            SchemaProblem::BlockNotAllowed { name } => format!("Unexpected \"{name}\" block"),
            SchemaProblem::Reserved { owner, is_block: false, .. } => {
                format!("Reserved argument name in {owner} block")
            }
            SchemaProblem::Reserved { owner, is_block: true, .. } => {
                format!("Reserved block type name in {owner} block")
            }
            SchemaProblem::Misplaced(misplaced) => match misplaced {
                Misplaced::RequiredProviders => "Invalid required_providers block".into(),
                Misplaced::OutputPostcondition => "Postconditions are not allowed".into(),
                Misplaced::NestedDataRepetition { for_each: false } => "Invalid \"count\" attribute".into(),
                Misplaced::NestedDataRepetition { for_each: true } => "Invalid \"for_each\" attribute".into(),
                Misplaced::NestedDataLifecycle => "Invalid lifecycle block".into(),
            },
            SchemaProblem::MissingArgument { .. } => "Missing required argument".into(),
            SchemaProblem::ExtraneousLabel { block_type, .. } => format!("Extraneous label for {block_type}"),
            SchemaProblem::MissingLabel { block_type, label_names, missing } => {
                format!("Missing {} for {block_type}", label_names[*missing])
            }
            SchemaProblem::DuplicateBlock { block_type, .. } => format!("Duplicate {block_type} block"),
            SchemaProblem::DuplicateRunName { .. } => "Duplicate \"run\" block names".into(),
            SchemaProblem::CountAndForEach => "Invalid combination of \"count\" and \"for_each\"".into(),
            SchemaProblem::ImportIdentity { .. } => "Invalid import block".into(),
            SchemaProblem::SecondCheckData { .. } => "Multiple data resource blocks".into(),
            SchemaProblem::ZeroAssertBlocks => "Zero assert blocks".into(),
            SchemaProblem::DynamicContent { extraneous: false } => "Missing dynamic content block".into(),
            SchemaProblem::DynamicContent { extraneous: true } => "Extraneous dynamic content block".into(),
            SchemaProblem::InvalidAddress(problem) => match problem {
                AddressProblem::NotStatic => "Invalid expression".into(),
                AddressProblem::ModuleName | AddressProblem::ModuleStep => "Invalid address operator".into(),
                AddressProblem::ModuleInstanceKey => "Module instance keys not allowed".into(),
                AddressProblem::ResourceInstanceKey => "Resource instance keys not allowed".into(),
                AddressProblem::DataSourceRemoved => "Data source address not allowed".into(),
                AddressProblem::NotManaged => "Invalid import address".into(),
                AddressProblem::MovedKinds => "Invalid \"moved\" addresses".into(),
                AddressProblem::ReservedKeyword { .. }
                | AddressProblem::TypeAndName
                | AddressProblem::ResourceName
                | AddressProblem::KeyNotInBrackets
                | AddressProblem::ExtraOperators
                | AddressProblem::ModuleNotResource => "Invalid address".into(),
            },
            SchemaProblem::SecondInModule { kind, .. } => match kind {
                ModuleSingleton::Backend => "Duplicate 'backend' configuration block".into(),
                ModuleSingleton::StateStore => "Duplicate 'state_store' configuration block".into(),
                ModuleSingleton::Cloud => "Duplicate HCP Terraform configurations".into(),
                ModuleSingleton::RequiredProviders => "Duplicate required providers configuration".into(),
            },
            SchemaProblem::DuplicateProvider { .. } => "Duplicate provider configuration".into(),
            SchemaProblem::JsonBody { summary, .. } => summary.clone(),
        }
    }

    /// Terraform's detail: what is wrong, and what may have been meant.
    pub fn detail(&self) -> String {
        match self {
            SchemaProblem::UnsupportedArgument { name, suggestion } => {
                let hint = match suggestion {
                    Some(NameSuggestion::Name(meant)) => format!(" Did you mean \"{meant}\"?"),
                    Some(NameSuggestion::BlockOfType) => {
                        format!(" Did you mean to define a block of type \"{name}\"?")
                    }
                    _ => String::new(),
                };
                format!("An argument named \"{name}\" is not expected here.{hint}")
            }
            SchemaProblem::UnsupportedBlockType { name, suggestion } => {
                let hint = match suggestion {
                    Some(NameSuggestion::Name(meant)) => format!(" Did you mean \"{meant}\"?"),
                    Some(NameSuggestion::Argument) => format!(
                        " Did you mean to define argument \"{name}\"? If so, use the equals sign to assign it a value."
                    ),
                    _ => String::new(),
                };
                format!("Blocks of type \"{name}\" are not expected here.{hint}")
            }
            SchemaProblem::BlockNotAllowed { .. } => "Blocks are not allowed here.".into(),
            SchemaProblem::Reserved { name, is_block: false, owner } => {
                format!("The {owner} argument name \"{name}\" is reserved for use by Terraform in a future version.")
            }
            SchemaProblem::Reserved { name, is_block: true, .. } => {
                format!("The block type name \"{name}\" is reserved for use by Terraform in a future version.")
            }
            SchemaProblem::Misplaced(misplaced) => match misplaced {
                Misplaced::RequiredProviders => {
                    "A \"required_providers\" block must be nested inside a \"terraform\" block.".into()
                }
                Misplaced::OutputPostcondition => {
                    "Output values can only have preconditions, not postconditions.".into()
                }
                Misplaced::NestedDataRepetition { .. } => {
                    "The \"count\" and \"for_each\" meta-arguments are not supported within nested data blocks."
                        .into()
                }
                Misplaced::NestedDataLifecycle => "Nested data blocks do not support \"lifecycle\" blocks as the \
                                                   lifecycle is managed by the containing block."
                    .into(),
            },
            SchemaProblem::MissingArgument { name } => {
                format!("The argument \"{name}\" is required, but no definition was found.")
            }
            SchemaProblem::ExtraneousLabel { block_type, label_names } => match label_names.len() {
                0 => format!("No labels are expected for {block_type} blocks."),
                wanted => format!(
                    "Only {wanted} labels ({}) are expected for {block_type} blocks.",
                    label_names.join(", ")
                ),
            },
            SchemaProblem::MissingLabel { block_type, label_names, .. } => format!(
                "All {block_type} blocks must have {} labels ({}).",
                label_names.len(),
                label_names.join(", ")
            ),
            SchemaProblem::DuplicateBlock { block_type, owner, first } => {
                format!("{owner} already has a {block_type} block at {first}.")
            }
            SchemaProblem::DuplicateRunName { name, first } => {
                format!("This test file already has a run named {name} block defined at {first}.")
            }
            SchemaProblem::CountAndForEach => "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, \
                                               only one should be used to be explicit about the number of resources \
                                               to be created."
                .into(),
            SchemaProblem::ImportIdentity { both: false } => {
                "At least one of 'id' or 'identity' must be specified.".into()
            }
            SchemaProblem::ImportIdentity { both: true } => "Only one of 'id' or 'identity' can be specified.".into(),
            SchemaProblem::SecondCheckData { first } => {
                format!("This check block already has a data resource defined at {first}.")
            }
            SchemaProblem::ZeroAssertBlocks => "Check blocks must have at least one assert block.".into(),
            SchemaProblem::DynamicContent { extraneous: false } => "A dynamic block must have a nested block of type \
                                                                     \"content\" to describe the body of each \
                                                                     generated block."
                .into(),
            SchemaProblem::DynamicContent { extraneous: true } => {
                "Only one nested content block is allowed for each dynamic block.".into()
            }
            SchemaProblem::InvalidAddress(problem) => match problem {
                AddressProblem::NotStatic => "A single static variable reference is required: only attribute \
                                              access and indexing with constant keys. No calculations, function \
                                              calls, template expressions, etc are allowed here."
                    .into(),
                AddressProblem::ModuleName => "Prefix \"module.\" must be followed by a module name.".into(),
                AddressProblem::ReservedKeyword { keyword } => format!(
                    "The keyword \"{keyword}\" is reserved and cannot be used to target a resource address. If \
                     you are targeting a resource type that uses a reserved keyword, please prefix your address \
                     with \"resource.\"."
                ),
                AddressProblem::ModuleStep => "Module address prefix must be followed by dot and then a name.".into(),
                AddressProblem::TypeAndName => "Resource specification must include a resource type and name.".into(),
                AddressProblem::ResourceName => "A resource name is required.".into(),
                AddressProblem::KeyNotInBrackets => "Resource instance key must be given in square brackets.".into(),
                AddressProblem::ExtraOperators => "Unexpected extra operators after address.".into(),
                AddressProblem::ModuleInstanceKey => "Module address must be a module (e.g. \"module.foo\"), not a \
                                                      module instance (e.g. \"module.foo[1]\")."
                    .into(),
                AddressProblem::ResourceInstanceKey => "Resource address must be a resource (e.g. \
                                                        \"test_instance.foo\"), not a resource instance (e.g. \
                                                        \"test_instance.foo[1]\")."
                    .into(),
                AddressProblem::DataSourceRemoved => "Data sources are never destroyed, so they are not valid \
                                                      targets of removed blocks. To remove the data source from \
                                                      state, remove the data source block from configuration."
                    .into(),
                AddressProblem::ModuleNotResource => "A resource instance address is required here. The module \
                                                      path must be followed by a resource instance specification."
                    .into(),
                AddressProblem::NotManaged => "Only managed resources can be imported.".into(),
                AddressProblem::MovedKinds => "The \"from\" and \"to\" addresses must either both refer to \
                                               resources or both refer to modules."
                    .into(),
            },
            SchemaProblem::SecondInModule { kind, first } => match kind {
                ModuleSingleton::Backend => format!(
                    "A module may have only one 'backend' configuration block. The backend was previously \
                     configured at {first}."
                ),
                ModuleSingleton::StateStore => format!(
                    "A module may have only one 'state_store' configuration block. The state store was \
                     previously configured at {first}."
                ),
                ModuleSingleton::Cloud => format!(
                    "A module may have only one 'cloud' block configuring HCP Terraform or Terraform \
                     Enterprise. The 'cloud' block was previously configured at {first}."
                ),
                ModuleSingleton::RequiredProviders => format!(
                    "A module may have only one required providers configuration. The required providers were \
                     previously configured at {first}."
                ),
            },
            SchemaProblem::DuplicateProvider { name, alias: None, first } => format!(
                "A default (non-aliased) provider configuration for {name:?} was already given at {first}. If \
                 multiple configurations are required, set the \"alias\" argument for alternative configurations."
            ),
            SchemaProblem::DuplicateProvider { name, alias: Some(alias), first } => format!(
                "A provider configuration for {name:?} with alias {alias:?} was already given at {first}. Each \
                 configuration for the same provider must have a distinct alias."
            ),
            SchemaProblem::JsonBody { detail, .. } => detail.clone(),
        }
    }

    /// The name written and the one a did-you-mean suggests, if any.
    pub fn suggested_name(&self) -> Option<(&SmolStr, &SmolStr)> {
        match self {
            SchemaProblem::UnsupportedArgument { name, suggestion: Some(NameSuggestion::Name(meant)) }
            | SchemaProblem::UnsupportedBlockType { name, suggestion: Some(NameSuggestion::Name(meant)) } => {
                Some((name, meant))
            }
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// The schemas

/// An argument of a schema.
#[derive(Debug, Clone, Copy)]
struct Arg {
    name: &'static str,
    required: bool,
}

const fn arg(name: &'static str) -> Arg {
    Arg { name, required: false }
}

const fn required(name: &'static str) -> Arg {
    Arg { name, required: true }
}

/// A nested block type of a schema.
#[derive(Debug, Clone, Copy)]
struct Nested {
    type_name: &'static str,
    label_names: &'static [&'static str],
    content: Content,
    /// At most one per body ("Duplicate lifecycle block").
    once: bool,
}

const fn block(type_name: &'static str, content: Content) -> Nested {
    Nested { type_name, label_names: &[], content, once: false }
}

const fn labelled(type_name: &'static str, label_names: &'static [&'static str], content: Content) -> Nested {
    Nested { type_name, label_names, content, once: false }
}

const fn once(type_name: &'static str, content: Content) -> Nested {
    Nested { type_name, label_names: &[], content, once: true }
}

/// What a nested block's body holds.
#[derive(Debug, Clone, Copy)]
enum Content {
    /// Terraform's own schema.
    Schema(&'static Schema),
    /// Arguments only, any names (`locals`, `required_providers`).
    Arguments,
    /// A body someone else defines (a backend's, `cloud`'s, `provider_meta`'s).
    Unchecked,
    /// A body a provider defines: only its `dynamic` blocks are checked.
    Provider,
    /// A name Terraform reserves here.
    Reserved,
}

/// What a body may hold besides its schema's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rest {
    /// Nothing: every other name is unsupported.
    Closed,
    /// Whatever a provider defines (a resource's, a provider's arguments).
    Provider,
    /// Any argument (a module call's input variables).
    Arguments,
}

#[derive(Debug)]
struct Schema {
    /// How Terraform names the block in its messages ("resource", "module").
    owner: &'static str,
    /// How Terraform starts the detail of a duplicate ("This resource").
    this: &'static str,
    arguments: &'static [Arg],
    /// Arguments Terraform reserves here.
    reserved_arguments: &'static [&'static str],
    blocks: &'static [Nested],
    rest: Rest,
    /// What Terraform checks in the block beyond its schema.
    special: Special,
}

/// The checks of a block beyond its schema (see `Checker::special`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Special {
    None,
    /// A configuration file's top level: `required_providers` outside
    /// `terraform`.
    ConfigurationFile,
    /// A resource, data source, ephemeral resource or module call: `count`
    /// and `for_each` exclude each other.
    Repeatable,
    /// An output: no postconditions.
    Output,
    /// A `moved` block's addresses.
    Moved,
    /// A configuration's `removed` block's address (a Stack's `removed`
    /// names a component, not a resource).
    Removed,
    /// An `import` block's address and identity.
    Import,
    /// A `check` block's data source and asserts.
    Check,
    /// A `dynamic` block's `content`.
    Dynamic,
    /// A test file's top level: each `run` block's name once.
    TestFile,
}

const CHECK_RULE: Schema = Schema {
    owner: "condition",
    this: "This condition",
    arguments: &[required("condition"), required("error_message")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const VARIABLE: Schema = Schema {
    owner: "variable",
    this: "This variable",
    arguments: &[
        arg("description"),
        arg("default"),
        arg("type"),
        arg("sensitive"),
        arg("ephemeral"),
        arg("nullable"),
        arg("deprecated"),
        arg("const"),
    ],
    reserved_arguments: &[],
    blocks: &[block("validation", Content::Schema(&CHECK_RULE))],
    rest: Rest::Closed,
    special: Special::None,
};

const OUTPUT: Schema = Schema {
    owner: "output",
    this: "This output",
    arguments: &[
        arg("description"),
        required("value"),
        arg("depends_on"),
        arg("sensitive"),
        arg("ephemeral"),
        arg("deprecated"),
        arg("type"),
    ],
    reserved_arguments: &[],
    blocks: &[
        block("precondition", Content::Schema(&CHECK_RULE)),
        block("postcondition", Content::Unchecked),
    ],
    rest: Rest::Closed,
    special: Special::Output,
};

const MODULE: Schema = Schema {
    owner: "module",
    this: "This module call",
    arguments: &[
        required("source"),
        arg("version"),
        arg("count"),
        arg("for_each"),
        arg("depends_on"),
        arg("providers"),
        arg("ignore_nested_deprecations"),
    ],
    reserved_arguments: &[],
    blocks: &[
        block("_", Content::Unchecked),
        block("lifecycle", Content::Reserved),
        block("locals", Content::Reserved),
        labelled("provider", &["type"], Content::Reserved),
    ],
    rest: Rest::Arguments,
    special: Special::Repeatable,
};

const PROVIDER: Schema = Schema {
    owner: "provider",
    this: "This provider",
    arguments: &[arg("alias"), arg("version")],
    reserved_arguments: &["count", "depends_on", "for_each", "source"],
    blocks: &[
        block("_", Content::Provider),
        block("lifecycle", Content::Reserved),
        block("locals", Content::Reserved),
    ],
    rest: Rest::Provider,
    special: Special::None,
};

const TERRAFORM: Schema = Schema {
    owner: "terraform",
    this: "This terraform block",
    arguments: &[arg("required_version"), arg("experiments"), arg("language")],
    reserved_arguments: &[],
    blocks: &[
        labelled("backend", &["type"], Content::Unchecked),
        block("cloud", Content::Unchecked),
        block("required_providers", Content::Arguments),
        labelled("state_store", &["type"], Content::Unchecked),
        labelled("provider_meta", &["provider"], Content::Unchecked),
    ],
    rest: Rest::Closed,
    special: Special::None,
};

const ACTION_TRIGGER: Schema = Schema {
    owner: "action_trigger",
    this: "This action trigger",
    arguments: &[required("events"), arg("condition"), required("actions"), arg("on_failure")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const LIFECYCLE: Schema = Schema {
    owner: "lifecycle",
    this: "This lifecycle block",
    arguments: &[
        arg("create_before_destroy"),
        arg("prevent_destroy"),
        arg("ignore_changes"),
        arg("replace_triggered_by"),
        arg("destroy"),
    ],
    reserved_arguments: &[],
    blocks: &[
        block("precondition", Content::Schema(&CHECK_RULE)),
        block("postcondition", Content::Schema(&CHECK_RULE)),
        block("action_trigger", Content::Schema(&ACTION_TRIGGER)),
    ],
    rest: Rest::Closed,
    special: Special::None,
};

const CONNECTION: Content = Content::Provider;

const PROVISIONER: Schema = Schema {
    owner: "provisioner",
    this: "This provisioner",
    arguments: &[arg("when"), arg("on_failure")],
    reserved_arguments: &[],
    blocks: &[
        block("_", Content::Provider),
        once("connection", CONNECTION),
        block("lifecycle", Content::Reserved),
    ],
    rest: Rest::Provider,
    special: Special::None,
};

const RESOURCE: Schema = Schema {
    owner: "resource",
    this: "This resource",
    arguments: &[arg("count"), arg("for_each"), arg("provider"), arg("depends_on")],
    reserved_arguments: &[],
    blocks: &[
        block("locals", Content::Reserved),
        once("lifecycle", Content::Schema(&LIFECYCLE)),
        once("connection", CONNECTION),
        labelled("provisioner", &["type"], Content::Schema(&PROVISIONER)),
        block("_", Content::Provider),
    ],
    rest: Rest::Provider,
    special: Special::Repeatable,
};

const DATA: Schema = Schema {
    owner: "data",
    this: "This resource",
    arguments: &[arg("count"), arg("for_each"), arg("provider"), arg("depends_on")],
    reserved_arguments: &[],
    blocks: &[
        once("lifecycle", Content::Schema(&LIFECYCLE)),
        block("locals", Content::Reserved),
        block("_", Content::Provider),
    ],
    rest: Rest::Provider,
    special: Special::Repeatable,
};

const EPHEMERAL: Schema = Schema { owner: "ephemeral", ..DATA };

const MOVED: Schema = Schema {
    owner: "moved",
    this: "This \"moved\" block",
    arguments: &[required("from"), required("to")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::Moved,
};

const IMPORT: Schema = Schema {
    owner: "import",
    this: "This \"import\" block",
    arguments: &[arg("provider"), arg("for_each"), arg("id"), required("to"), arg("identity")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::Import,
};

const REMOVED_LIFECYCLE: Schema = Schema {
    owner: "lifecycle",
    this: "This lifecycle block",
    arguments: &[arg("destroy")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const REMOVED: Schema = Schema {
    owner: "removed",
    this: "This \"removed\" block",
    arguments: &[required("from")],
    reserved_arguments: &[],
    blocks: &[
        block("lifecycle", Content::Schema(&REMOVED_LIFECYCLE)),
        once("connection", CONNECTION),
        labelled("provisioner", &["type"], Content::Schema(&PROVISIONER)),
    ],
    rest: Rest::Closed,
    special: Special::Removed,
};

const CHECK: Schema = Schema {
    owner: "check",
    this: "This check block",
    arguments: &[],
    reserved_arguments: &[],
    blocks: &[
        labelled("data", &["type", "name"], Content::Schema(&DATA)),
        block("assert", Content::Schema(&CHECK_RULE)),
    ],
    rest: Rest::Closed,
    special: Special::Check,
};

const ACTION: Schema = Schema {
    owner: "action",
    this: "This action",
    arguments: &[arg("count"), arg("for_each"), arg("provider")],
    reserved_arguments: &[],
    blocks: &[block("config", Content::Provider)],
    rest: Rest::Closed,
    special: Special::None,
};

const DYNAMIC: Schema = Schema {
    owner: "dynamic",
    this: "This dynamic block",
    arguments: &[required("for_each"), arg("iterator"), arg("labels")],
    reserved_arguments: &[],
    blocks: &[block("content", Content::Provider)],
    rest: Rest::Closed,
    special: Special::Dynamic,
};

/// The top level of a configuration file: blocks only.
const FILE: Schema = Schema {
    owner: "file",
    this: "This file",
    arguments: &[],
    reserved_arguments: &[],
    blocks: &[
        block("terraform", Content::Schema(&TERRAFORM)),
        block("required_providers", Content::Unchecked),
        labelled("provider", &["name"], Content::Schema(&PROVIDER)),
        labelled("variable", &["name"], Content::Schema(&VARIABLE)),
        block("locals", Content::Arguments),
        labelled("output", &["name"], Content::Schema(&OUTPUT)),
        labelled("module", &["name"], Content::Schema(&MODULE)),
        labelled("resource", &["type", "name"], Content::Schema(&RESOURCE)),
        labelled("data", &["type", "name"], Content::Schema(&DATA)),
        labelled("ephemeral", &["type", "name"], Content::Schema(&EPHEMERAL)),
        labelled("action", &["type", "name"], Content::Schema(&ACTION)),
        block("moved", Content::Schema(&MOVED)),
        block("removed", Content::Schema(&REMOVED)),
        block("import", Content::Schema(&IMPORT)),
        labelled("check", &["name"], Content::Schema(&CHECK)),
    ],
    rest: Rest::Closed,
    special: Special::ConfigurationFile,
};

// Terraform's test, mock and query files (`*.tftest.hcl`, `*.tfmock.hcl`,
// `*.tfquery.hcl`): blocks of their own, and some of the configuration's.

const TEST_CONFIG: Schema = Schema {
    owner: "test",
    this: "This test file",
    arguments: &[arg("parallel"), arg("skip_cleanup")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const OVERRIDE_RESOURCE: Schema = Schema {
    owner: "override_resource",
    this: "This override_resource block",
    arguments: &[arg("target"), arg("override_during"), arg("values")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const OVERRIDE_DATA: Schema =
    Schema { owner: "override_data", this: "This override_data block", ..OVERRIDE_RESOURCE };

const OVERRIDE_MODULE: Schema = Schema {
    owner: "override_module",
    this: "This override_module block",
    arguments: &[arg("target"), arg("override_during"), arg("outputs")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const MOCK_RESOURCE: Schema = Schema {
    owner: "mock_resource",
    this: "This mock_resource block",
    arguments: &[arg("defaults"), arg("override_during")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const MOCK_DATA: Schema = Schema { owner: "mock_data", this: "This mock_data block", ..MOCK_RESOURCE };

/// What a mock provider's body and a mock data file hold.
const MOCK_BLOCKS: &[Nested] = &[
    labelled("mock_resource", &["type"], Content::Schema(&MOCK_RESOURCE)),
    labelled("mock_data", &["type"], Content::Schema(&MOCK_DATA)),
    block("override_resource", Content::Schema(&OVERRIDE_RESOURCE)),
    block("override_data", Content::Schema(&OVERRIDE_DATA)),
];

const MOCK_PROVIDER: Schema = Schema {
    owner: "mock_provider",
    this: "This mock provider",
    arguments: &[arg("alias"), arg("source"), arg("override_during")],
    reserved_arguments: &[],
    blocks: MOCK_BLOCKS,
    rest: Rest::Closed,
    special: Special::None,
};

const PLAN_OPTIONS: Schema = Schema {
    owner: "plan_options",
    this: "This run block",
    arguments: &[arg("mode"), arg("refresh"), arg("replace"), arg("target")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const RUN_MODULE: Schema = Schema {
    owner: "module",
    this: "This run block",
    arguments: &[arg("source"), arg("version")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const RUN: Schema = Schema {
    owner: "run",
    this: "This run block",
    arguments: &[
        arg("command"),
        arg("providers"),
        arg("expect_failures"),
        arg("state_key"),
        arg("parallel"),
        arg("skip_cleanup"),
    ],
    reserved_arguments: &[],
    blocks: &[
        once("plan_options", Content::Schema(&PLAN_OPTIONS)),
        block("assert", Content::Schema(&CHECK_RULE)),
        block("variables", Content::Arguments),
        once("module", Content::Schema(&RUN_MODULE)),
        block("override_resource", Content::Schema(&OVERRIDE_RESOURCE)),
        block("override_data", Content::Schema(&OVERRIDE_DATA)),
        block("override_module", Content::Schema(&OVERRIDE_MODULE)),
        labelled("backend", &["name"], Content::Unchecked),
    ],
    rest: Rest::Closed,
    special: Special::None,
};

/// The top level of a test file.
const TEST_FILE: Schema = Schema {
    owner: "test file",
    this: "This test file",
    arguments: &[],
    reserved_arguments: &[],
    blocks: &[
        once("test", Content::Schema(&TEST_CONFIG)),
        labelled("run", &["name"], Content::Schema(&RUN)),
        labelled("provider", &["name"], Content::Schema(&PROVIDER)),
        labelled("mock_provider", &["name"], Content::Schema(&MOCK_PROVIDER)),
        labelled("variable", &["name"], Content::Schema(&VARIABLE)),
        block("variables", Content::Arguments),
        block("override_resource", Content::Schema(&OVERRIDE_RESOURCE)),
        block("override_data", Content::Schema(&OVERRIDE_DATA)),
        block("override_module", Content::Schema(&OVERRIDE_MODULE)),
    ],
    rest: Rest::Closed,
    special: Special::TestFile,
};

/// The top level of a mock data file.
const MOCK_FILE: Schema = Schema {
    owner: "mock file",
    this: "This mock data file",
    arguments: &[],
    reserved_arguments: &[],
    blocks: MOCK_BLOCKS,
    rest: Rest::Closed,
    special: Special::None,
};

const LIST: Schema = Schema {
    owner: "list",
    this: "A list block",
    arguments: &[arg("count"), arg("for_each"), arg("provider"), arg("include_resource"), arg("limit")],
    reserved_arguments: &[],
    blocks: &[once("config", Content::Provider)],
    rest: Rest::Closed,
    special: Special::None,
};

/// The top level of a query file.
const QUERY_FILE: Schema = Schema {
    owner: "query file",
    this: "This query file",
    arguments: &[],
    reserved_arguments: &[],
    blocks: &[
        labelled("list", &["type", "name"], Content::Schema(&LIST)),
        labelled("provider", &["name"], Content::Schema(&PROVIDER)),
        block("locals", Content::Arguments),
        labelled("variable", &["name"], Content::Schema(&VARIABLE)),
    ],
    rest: Rest::Closed,
    special: Special::None,
};

// A Stack's files: its component configuration (`*.tfcomponent.hcl`, and
// `*.tfstack.hcl` before Terraform 1.13), read by Terraform's `stackconfig`
// package, and its deployment configuration (`*.tfdeploy.hcl`), which HCP
// Terraform reads; the deployment blocks' schemas are those its
// documentation gives (developer.hashicorp.com, "Deployment configuration
// overview" and each block's reference), with the arguments of older
// releases it still documents (`orchestrate`).

const STACK_VARIABLE: Schema = Schema {
    owner: "variable",
    this: "This variable",
    arguments: &[
        required("type"),
        arg("default"),
        arg("description"),
        arg("sensitive"),
        arg("nullable"),
        arg("ephemeral"),
    ],
    reserved_arguments: &[],
    blocks: &[block("validation", Content::Schema(&CHECK_RULE))],
    rest: Rest::Closed,
    special: Special::None,
};

const STACK_OUTPUT: Schema = Schema {
    owner: "output",
    this: "This output",
    arguments: &[required("type"), arg("value"), arg("description"), arg("sensitive"), arg("ephemeral")],
    reserved_arguments: &[],
    blocks: &[block("precondition", Content::Schema(&CHECK_RULE))],
    rest: Rest::Closed,
    special: Special::None,
};

const COMPONENT: Schema = Schema {
    owner: "component",
    this: "This component",
    arguments: &[
        required("source"),
        arg("version"),
        arg("for_each"),
        arg("inputs"),
        arg("providers"),
        arg("depends_on"),
    ],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const EMBEDDED_STACK: Schema = Schema {
    owner: "stack",
    this: "This stack call",
    arguments: &[required("source"), arg("version"), arg("for_each"), arg("inputs"), arg("depends_on")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const STACK_PROVIDER: Schema = Schema {
    owner: "provider",
    this: "This provider configuration",
    arguments: &[arg("for_each")],
    reserved_arguments: &[],
    blocks: &[block("config", Content::Provider)],
    rest: Rest::Closed,
    special: Special::None,
};

const STACK_REMOVED: Schema = Schema {
    owner: "removed",
    this: "This \"removed\" block",
    arguments: &[
        required("from"),
        required("source"),
        arg("version"),
        arg("for_each"),
        arg("providers"),
        arg("inputs"),
    ],
    reserved_arguments: &[],
    blocks: &[block("lifecycle", Content::Schema(&REMOVED_LIFECYCLE))],
    rest: Rest::Closed,
    special: Special::None,
};

/// The top level of a Stack's component configuration file.
const STACK_COMPONENTS_FILE: Schema = Schema {
    owner: "component configuration",
    this: "This component configuration file",
    arguments: &[arg("language")],
    reserved_arguments: &[],
    blocks: &[
        labelled("stack", &["name"], Content::Schema(&EMBEDDED_STACK)),
        labelled("component", &["name"], Content::Schema(&COMPONENT)),
        labelled("variable", &["name"], Content::Schema(&STACK_VARIABLE)),
        block("locals", Content::Arguments),
        labelled("output", &["name"], Content::Schema(&STACK_OUTPUT)),
        labelled("provider", &["type", "name"], Content::Schema(&STACK_PROVIDER)),
        block("required_providers", Content::Arguments),
        block("removed", Content::Schema(&STACK_REMOVED)),
    ],
    rest: Rest::Closed,
    special: Special::None,
};

const DEPLOYMENT: Schema = Schema {
    owner: "deployment",
    this: "This deployment",
    arguments: &[arg("inputs"), arg("deployment_group"), arg("destroy"), arg("import")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const DEPLOYMENT_GROUP: Schema = Schema {
    owner: "deployment_group",
    this: "This deployment group",
    arguments: &[arg("auto_approve_checks")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const AUTO_APPROVE_CHECK: Schema = Schema {
    owner: "check",
    this: "This check",
    arguments: &[required("condition"), required("reason")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const DEPLOYMENT_AUTO_APPROVE: Schema = Schema {
    owner: "deployment_auto_approve",
    this: "This auto-approval rule",
    arguments: &[],
    reserved_arguments: &[],
    blocks: &[block("check", Content::Schema(&AUTO_APPROVE_CHECK))],
    rest: Rest::Closed,
    special: Special::None,
};

/// `orchestrate "auto_approve" "NAME"` and `orchestrate "replan" "NAME"`,
/// the rules `deployment_auto_approve` replaced.
const ORCHESTRATE: Schema =
    Schema { owner: "orchestrate", this: "This orchestration rule", ..DEPLOYMENT_AUTO_APPROVE };

const IDENTITY_TOKEN: Schema = Schema {
    owner: "identity_token",
    this: "This identity token",
    arguments: &[required("audience")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const STORE: Schema = Schema {
    owner: "store",
    this: "This store",
    arguments: &[arg("id"), arg("name"), required("category")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const UPSTREAM_INPUT: Schema = Schema {
    owner: "upstream_input",
    this: "This upstream input",
    arguments: &[required("type"), required("source")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

const PUBLISH_OUTPUT: Schema = Schema {
    owner: "publish_output",
    this: "This published output",
    arguments: &[arg("description"), required("value")],
    reserved_arguments: &[],
    blocks: &[],
    rest: Rest::Closed,
    special: Special::None,
};

/// The top level of a Stack's deployment configuration file.
const STACK_DEPLOYMENTS_FILE: Schema = Schema {
    owner: "deployment configuration",
    this: "This deployment configuration file",
    arguments: &[],
    reserved_arguments: &[],
    blocks: &[
        labelled("deployment", &["name"], Content::Schema(&DEPLOYMENT)),
        labelled("deployment_group", &["name"], Content::Schema(&DEPLOYMENT_GROUP)),
        labelled("deployment_auto_approve", &["name"], Content::Schema(&DEPLOYMENT_AUTO_APPROVE)),
        labelled("orchestrate", &["type", "name"], Content::Schema(&ORCHESTRATE)),
        labelled("identity_token", &["name"], Content::Schema(&IDENTITY_TOKEN)),
        labelled("store", &["type", "name"], Content::Schema(&STORE)),
        labelled("upstream_input", &["name"], Content::Schema(&UPSTREAM_INPUT)),
        labelled("publish_output", &["name"], Content::Schema(&PUBLISH_OUTPUT)),
        block("locals", Content::Arguments),
    ],
    rest: Rest::Closed,
    special: Special::None,
};

/// The schema of a file's top level by its name: a configuration file's,
/// or a test, mock, query or Stack file's (the one table of file kinds,
/// [`vfs::TerraformFormat`]). OpenTofu's test files have none here.
fn file_schema(path: &camino::Utf8Path) -> Option<&'static Schema> {
    const CONFIGURATION: &Schema = &FILE;
    const TEST: &Schema = &TEST_FILE;
    const MOCK: &Schema = &MOCK_FILE;
    const QUERY: &Schema = &QUERY_FILE;
    const COMPONENTS: &Schema = &STACK_COMPONENTS_FILE;
    const DEPLOYMENTS: &Schema = &STACK_DEPLOYMENTS_FILE;
    if vfs::FileKind::of_named(path).language == vfs::Language::Terraform {
        return Some(CONFIGURATION);
    }
    match vfs::TerraformFormat::of(path)? {
        vfs::TerraformFormat::Test => Some(TEST),
        vfs::TerraformFormat::Mock => Some(MOCK),
        vfs::TerraformFormat::Query => Some(QUERY),
        vfs::TerraformFormat::StackComponents => Some(COMPONENTS),
        vfs::TerraformFormat::StackDeployments => Some(DEPLOYMENTS),
        vfs::TerraformFormat::OpenTofuTest => None,
    }
}

/// The label names of a `dynamic` block.
const DYNAMIC_LABELS: &[&str] = &["type"];

// ---------------------------------------------------------------------------
// The check

/// A [`SchemaProblem`] at a place in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacedProblem {
    pub problem: SchemaProblem,
    pub range: TextRange,
    /// The first of two blocks, for a duplicate.
    pub first: Option<TextRange>,
}

/// The problems of a native Terraform configuration file's own blocks, in
/// the order Terraform finds them (block by block, each block's schema
/// before its nested blocks). `override` relaxes required arguments, as
/// for Terraform's override files.
pub fn check_file(
    text: &str,
    file_name: &str,
    root: &ast::SourceFile,
    override_file: bool,
) -> Vec<PlacedProblem> {
    check_file_against(text, file_name, root, override_file, &FILE)
}

fn check_file_against(
    text: &str,
    file_name: &str,
    root: &ast::SourceFile,
    override_file: bool,
    schema: &'static Schema,
) -> Vec<PlacedProblem> {
    let mut checker = Checker { text, file_name, index: None, override_file, out: Vec::new() };
    if let Some(body) = root.body() {
        checker.body(&body, schema, None);
    }
    checker.out
}

struct Checker<'t> {
    text: &'t str,
    file_name: &'t str,
    index: Option<LineIndex>,
    override_file: bool,
    out: Vec<PlacedProblem>,
}

/// A block's header as Terraform reads it.
struct Header {
    block: ast::Block,
    type_name: SmolStr,
    type_token: SyntaxToken,
    labels: Vec<(SmolStr, TextRange)>,
}

impl Header {
    fn of(block: ast::Block) -> Option<Header> {
        let type_token = block.ident_token()?;
        let type_name = SmolStr::new(type_token.text());
        let labels = block
            .block_labels()
            .map(|label| (SmolStr::from(label.unquoted_text()), label.syntax().text_range()))
            .collect();
        Some(Header { block, type_name, type_token, labels })
    }

    /// From the type to the last label: Terraform's `DefRange`.
    fn def_range(&self) -> TextRange {
        let start = self.type_token.text_range();
        match self.labels.last() {
            Some((_, last)) => start.cover(*last),
            None => start,
        }
    }

    fn open_brace(&self) -> TextRange {
        self.block.l_curly_token().map_or_else(|| self.def_range(), |it| it.text_range())
    }
}

impl Checker<'_> {
    fn push(&mut self, problem: SchemaProblem, range: TextRange) {
        self.out.push(PlacedProblem { problem, range, first: None });
    }

    /// A range as Terraform prints one: `main.tf:3,3-12`, or with both
    /// lines when it spans several.
    fn terraform_range(&mut self, range: TextRange) -> String {
        let index = self.index.get_or_insert_with(|| LineIndex::new(self.text));
        terraform_range_in(index, self.file_name, range)
    }

    /// Checks `body` against `schema`; `header` is the block it belongs to
    /// (none for the file's top level).
    fn body(&mut self, body: &ast::Body, schema: &'static Schema, header: Option<&Header>) {
        let items: Vec<ast::BodyItem> = body.items().collect();
        // Arguments first, as HCL's `Content` reports them.
        let mut present: Vec<&'static str> = Vec::new();
        let mut written = Vec::new();
        for item in &items {
            let ast::BodyItem::Attribute(attribute) = item else { continue };
            let Some(name_token) = attribute.ident_token() else { continue };
            let name = SmolStr::new(name_token.text());
            written.push((name.clone(), name_token.text_range()));
            if let Some(known) = schema.arguments.iter().find(|it| it.name == name) {
                present.push(known.name);
            }
        }
        if header.is_some() && !self.override_file {
            for argument in schema.arguments.iter().filter(|it| it.required) {
                if !present.contains(&argument.name) {
                    let range = header.map_or_else(|| body.syntax().text_range(), Header::open_brace);
                    self.push(SchemaProblem::MissingArgument { name: argument.name }, range);
                }
            }
        }
        for (name, range) in &written {
            if schema.arguments.iter().any(|it| it.name == name) {
                continue;
            }
            if schema.reserved_arguments.contains(&name.as_str()) {
                let problem =
                    SchemaProblem::Reserved { name: name.clone(), owner: schema.owner, is_block: false };
                self.push(problem, *range);
                continue;
            }
            if schema.rest != Rest::Closed {
                continue;
            }
            let candidates = schema.arguments.iter().map(|it| it.name).filter(|it| !present.contains(it));
            let suggestion = match name_suggestion(name, candidates) {
                Some(meant) => Some(NameSuggestion::Name(meant.into())),
                None if schema.blocks.iter().any(|it| it.type_name == name) => {
                    Some(NameSuggestion::BlockOfType)
                }
                None => None,
            };
            self.push(SchemaProblem::UnsupportedArgument { name: name.clone(), suggestion }, *range);
        }

        let mut seen: Vec<(&'static str, TextRange)> = Vec::new();
        for item in items {
            let ast::BodyItem::Block(block) = item else { continue };
            let Some(header) = Header::of(block) else { continue };
            let Some(nested) = schema.blocks.iter().find(|it| it.type_name == header.type_name) else {
                match schema.rest {
                    Rest::Closed => {
                        let candidates = schema.blocks.iter().map(|it| it.type_name);
                        let suggestion = match name_suggestion(&header.type_name, candidates) {
                            Some(meant) => Some(NameSuggestion::Name(meant.into())),
                            None if schema.arguments.iter().any(|it| it.name == header.type_name) => {
                                Some(NameSuggestion::Argument)
                            }
                            None => None,
                        };
                        let problem = SchemaProblem::UnsupportedBlockType {
                            name: header.type_name.clone(),
                            suggestion,
                        };
                        self.push(problem, header.type_token.text_range());
                    }
                    Rest::Provider => self.provider_block(&header),
                    Rest::Arguments => {}
                }
                continue;
            };
            if !self.labels(&header, nested.label_names) {
                continue;
            }
            if nested.once {
                if let Some(&(_, first)) = seen.iter().find(|(type_name, _)| *type_name == nested.type_name) {
                    let first_text = self.terraform_range(first);
                    let problem = SchemaProblem::DuplicateBlock {
                        block_type: header.type_name.clone(),
                        owner: schema.this,
                        first: first_text,
                    };
                    self.out.push(PlacedProblem { problem, range: header.def_range(), first: Some(first) });
                    continue;
                }
                seen.push((nested.type_name, header.def_range()));
            }
            self.nested(schema, nested, &header);
        }
        self.special(schema, body, header);
    }

    /// Whether `header` has the labels its type takes; reports it if not.
    /// A block with the wrong labels is not read further, as in HCL.
    fn labels(&mut self, header: &Header, label_names: &'static [&'static str]) -> bool {
        let wanted = label_names.len();
        if header.labels.len() > wanted {
            let problem =
                SchemaProblem::ExtraneousLabel { block_type: header.type_name.clone(), label_names };
            self.push(problem, header.labels[wanted].1);
            return false;
        }
        if header.labels.len() < wanted {
            let problem = SchemaProblem::MissingLabel {
                block_type: header.type_name.clone(),
                label_names,
                missing: header.labels.len(),
            };
            self.push(problem, header.open_brace());
            return false;
        }
        true
    }

    fn nested(&mut self, parent: &'static Schema, nested: &Nested, header: &Header) {
        match nested.content {
            Content::Schema(schema) => {
                if let Some(body) = header.block.body() {
                    self.body(&body, schema, Some(header));
                }
            }
            Content::Arguments => {
                let first_block = header.block.body().and_then(|body| body.blocks().next());
                if let Some(inner) = first_block.and_then(Header::of) {
                    let problem = SchemaProblem::BlockNotAllowed { name: inner.type_name.clone() };
                    self.push(problem, inner.type_token.text_range());
                }
            }
            Content::Unchecked => {}
            Content::Provider => {
                if let Some(body) = header.block.body() {
                    self.provider_body(&body);
                }
            }
            Content::Reserved => {
                let problem = SchemaProblem::Reserved {
                    name: header.type_name.clone(),
                    owner: parent.owner,
                    is_block: true,
                };
                self.push(problem, header.type_token.text_range());
            }
        }
    }

    /// A block in a provider's part of a body: a `dynamic` block has HCL's
    /// own schema; any other is the provider's, and may hold `dynamic`
    /// blocks itself.
    fn provider_block(&mut self, header: &Header) {
        if header.type_name == "dynamic" {
            if !self.labels(header, DYNAMIC_LABELS) {
                return;
            }
            if let Some(body) = header.block.body() {
                self.body(&body, &DYNAMIC, Some(header));
            }
            return;
        }
        if let Some(body) = header.block.body() {
            self.provider_body(&body);
        }
    }

    fn provider_body(&mut self, body: &ast::Body) {
        for block in body.blocks() {
            if let Some(header) = Header::of(block) {
                self.provider_block(&header);
            }
        }
    }

    /// What Terraform checks beyond the schema, per block type.
    fn special(&mut self, schema: &'static Schema, body: &ast::Body, header: Option<&Header>) {
        let Some(header) = header else {
            match schema.special {
                // The top level of a configuration file: `required_providers`
                // outside `terraform`.
                Special::ConfigurationFile => self.top_level(body),
                Special::TestFile => self.run_names(body),
                _ => {}
            }
            return;
        };
        let attribute = |name: &str| {
            body.attributes().find(|it| it.ident_token().is_some_and(|token| token.text() == name))
        };
        let name_range = |attribute: &ast::Attribute| {
            attribute.ident_token().map_or_else(|| attribute.syntax().text_range(), |it| it.text_range())
        };
        let blocks_of = |type_name: &'static str| {
            body.blocks().filter(move |it| it.ident_token().is_some_and(|token| token.text() == type_name))
        };
        if schema.special == Special::Repeatable
            && attribute("count").is_some()
            && let Some(for_each) = attribute("for_each")
        {
            self.push(SchemaProblem::CountAndForEach, name_range(&for_each));
        }
        match schema.special {
            Special::Output => {
                for postcondition in blocks_of("postcondition").filter_map(Header::of) {
                    self.push(
                        SchemaProblem::Misplaced(Misplaced::OutputPostcondition),
                        postcondition.type_token.text_range(),
                    );
                }
            }
            Special::Moved => {
                let from = attribute("from").and_then(|it| self.address(&it, AddressUse::Moved));
                let to = attribute("to").and_then(|it| self.address(&it, AddressUse::Moved));
                if let (Some(from), Some(to)) = (from, to)
                    && from != to
                {
                    self.push(SchemaProblem::InvalidAddress(AddressProblem::MovedKinds), header.def_range());
                }
            }
            Special::Removed => {
                if let Some(from) = attribute("from") {
                    self.address(&from, AddressUse::Removed);
                }
            }
            Special::Import => {
                if let Some(to) = attribute("to") {
                    self.address(&to, AddressUse::Import);
                }
                let id = attribute("id").is_some();
                let identity = attribute("identity").is_some();
                if id && identity {
                    self.push(SchemaProblem::ImportIdentity { both: true }, header.def_range());
                } else if !id && !identity && !self.override_file {
                    self.push(SchemaProblem::ImportIdentity { both: false }, header.def_range());
                }
            }
            Special::Check => {
                let data: Vec<Header> = blocks_of("data").filter_map(Header::of).collect();
                if let Some(first) = data.first().map(Header::def_range) {
                    for second in data.iter().skip(1) {
                        let problem = SchemaProblem::SecondCheckData { first: self.terraform_range(first) };
                        self.out.push(PlacedProblem {
                            problem,
                            range: second.def_range(),
                            first: Some(first),
                        });
                    }
                }
                for data in &data {
                    let Some(body) = data.block.body() else { continue };
                    for attribute in body.attributes() {
                        let for_each = match attribute.ident_token().as_ref().map(SyntaxToken::text) {
                            Some("count") => false,
                            Some("for_each") => true,
                            _ => continue,
                        };
                        let problem = SchemaProblem::Misplaced(Misplaced::NestedDataRepetition { for_each });
                        self.push(problem, name_range(&attribute));
                    }
                    for lifecycle in body.blocks().filter_map(Header::of) {
                        if lifecycle.type_name == "lifecycle" {
                            self.push(
                                SchemaProblem::Misplaced(Misplaced::NestedDataLifecycle),
                                lifecycle.def_range(),
                            );
                        }
                    }
                }
                if blocks_of("assert").next().is_none() && !self.override_file {
                    self.push(SchemaProblem::ZeroAssertBlocks, header.def_range());
                }
            }
            Special::Dynamic => {
                let contents: Vec<Header> = blocks_of("content").filter_map(Header::of).collect();
                match contents.get(1) {
                    Some(second) => {
                        self.push(SchemaProblem::DynamicContent { extraneous: true }, second.def_range())
                    }
                    None if contents.is_empty() => {
                        self.push(SchemaProblem::DynamicContent { extraneous: false }, header.open_brace());
                    }
                    None => {}
                }
            }
            Special::None | Special::ConfigurationFile | Special::Repeatable | Special::TestFile => {}
        }
    }

    /// Checks the address `attribute` holds, as `use_` takes it; what it
    /// names when it is valid.
    fn address(&mut self, attribute: &ast::Attribute, use_: AddressUse) -> Option<AddressKind> {
        let expr = attribute.expr()?;
        let whole = expr.syntax().text_range();
        let Some(steps) = static_steps(&expr, use_ == AddressUse::Import) else {
            self.push(SchemaProblem::InvalidAddress(AddressProblem::NotStatic), whole);
            return None;
        };
        match read_address(&steps, whole, use_) {
            Ok(kind) => Some(kind),
            Err((problem, range)) => {
                self.push(SchemaProblem::InvalidAddress(problem), range);
                None
            }
        }
    }

    /// A test file's `run` blocks, each name once (Terraform's
    /// `configs.loadTestFile`): a later run of an earlier one's name is
    /// reported at its label.
    fn run_names(&mut self, body: &ast::Body) {
        let mut seen: Vec<(SmolStr, TextRange)> = Vec::new();
        for run in body.blocks().filter_map(Header::of) {
            let [(name, label)] = run.labels.as_slice() else { continue };
            if run.type_name != "run" {
                continue;
            }
            if let Some(&(_, first)) = seen.iter().find(|(seen, _)| seen == name) {
                let problem = SchemaProblem::DuplicateRunName {
                    name: name.clone(),
                    first: self.terraform_range(first),
                };
                self.out.push(PlacedProblem { problem, range: *label, first: Some(first) });
            } else {
                seen.push((name.clone(), run.def_range()));
            }
        }
    }

    fn top_level(&mut self, body: &ast::Body) {
        for block in body.blocks().filter_map(Header::of) {
            if block.type_name == "required_providers" {
                self.push(
                    SchemaProblem::Misplaced(Misplaced::RequiredProviders),
                    block.type_token.text_range(),
                );
            }
        }
    }
}

/// Which block an address is written in: each takes its own kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AddressUse {
    /// A `moved` block's `from` or `to`: a module or a resource, each with
    /// or without a key.
    Moved,
    /// An `import` block's `to`: a managed resource, its keys any
    /// expression (they are evaluated per `for_each` element).
    Import,
    /// A `removed` block's `from`: a module or a resource, without keys.
    Removed,
}

/// What a valid address names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AddressKind {
    Module,
    Resource,
}

/// One step of a static traversal.
#[derive(Debug, Clone)]
enum Step {
    /// The root or an attribute: `module`, `.aws_instance`.
    Name(SmolStr, TextRange),
    /// An index with a constant key, `[0]` or `.0`.
    Key(TextRange),
}

impl Step {
    fn range(&self) -> TextRange {
        match self {
            Step::Name(_, range) | Step::Key(range) => *range,
        }
    }

    fn name(&self) -> Option<&str> {
        match self {
            Step::Name(name, _) => Some(name),
            Step::Key(_) => None,
        }
    }
}

/// The steps of `expr` as HCL's `AbsTraversalForExpr` reads them: a root
/// followed by attributes and constant keys, or `None`. With
/// `dynamic_keys`, an index by any expression is dropped, as Terraform
/// reads an `import` block's `to`.
fn static_steps(expr: &ast::Expr, dynamic_keys: bool) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    let mut current = expr.clone();
    loop {
        current = match current {
            ast::Expr::Variable(variable) => {
                let name = variable.name()?;
                steps.push(Step::Name(SmolStr::new(name.text()), name.text_range()));
                break;
            }
            ast::Expr::GetAttrExpr(get) => {
                let name = get.name()?;
                let start = get.dot_token().map_or(name.text_range().start(), |dot| dot.text_range().start());
                steps.push(Step::Name(
                    SmolStr::new(name.text()),
                    TextRange::new(start, name.text_range().end()),
                ));
                get.base()?
            }
            ast::Expr::LegacyIndexExpr(index) => {
                let number = index.index_token()?;
                steps.push(Step::Key(number.text_range()));
                index.base()?
            }
            ast::Expr::IndexExpr(index) => {
                let key = index.index()?;
                let constant = match &key {
                    ast::Expr::Literal(_) => true,
                    ast::Expr::QuotedTemplate(template) => template
                        .syntax()
                        .children()
                        .all(|part| part.kind() == syntax::SyntaxKind::TEMPLATE_LITERAL),
                    _ => false,
                };
                let start = index
                    .l_brack_token()
                    .map_or(key.syntax().text_range().start(), |it| it.text_range().start());
                let end =
                    index.r_brack_token().map_or(key.syntax().text_range().end(), |it| it.text_range().end());
                if constant {
                    steps.push(Step::Key(TextRange::new(start, end)));
                } else if !dynamic_keys {
                    return None;
                }
                index.base()?
            }
            _ => return None,
        };
    }
    steps.reverse();
    Some(steps)
}

/// The roots that cannot start a resource address (Terraform's keywords).
const RESERVED_ROOTS: &[&str] =
    &["count", "each", "local", "module", "path", "self", "terraform", "var", "template", "lazy", "arg"];

/// Reads `steps` as an address of the kind `use_` takes: what it names,
/// or the problem and where it is.
fn read_address(
    steps: &[Step],
    whole: TextRange,
    use_: AddressUse,
) -> Result<AddressKind, (AddressProblem, TextRange)> {
    // The module path: `module.NAME`, each with an optional key.
    let mut rest = steps;
    while let Some(first) = rest.first() {
        match first.name() {
            Some("module") => {}
            Some(_) => break,
            None => return Err((AddressProblem::ModuleStep, first.range())),
        }
        let Some(name) = rest.get(1) else { return Err((AddressProblem::ModuleName, first.range())) };
        if name.name().is_none() {
            return Err((AddressProblem::ModuleName, name.range()));
        }
        rest = &rest[2..];
        if let Some(Step::Key(range)) = rest.first() {
            if use_ == AddressUse::Removed {
                return Err((AddressProblem::ModuleInstanceKey, *range));
            }
            rest = &rest[1..];
        }
    }
    if rest.is_empty() {
        return match use_ {
            AddressUse::Import => Err((AddressProblem::ModuleNotResource, whole)),
            AddressUse::Moved | AddressUse::Removed => Ok(AddressKind::Module),
        };
    }
    // The resource: an optional mode, a type, a name, and (but in a
    // `removed` block) one key.
    let mut managed = true;
    let root = rest[0].name().unwrap_or_default();
    match (root, use_) {
        ("data", _) => {
            managed = false;
            rest = &rest[1..];
        }
        ("ephemeral" | "list", AddressUse::Moved | AddressUse::Import) => {
            managed = false;
            rest = &rest[1..];
        }
        ("resource", AddressUse::Moved | AddressUse::Import) => rest = &rest[1..],
        (keyword, AddressUse::Moved | AddressUse::Import) if RESERVED_ROOTS.contains(&keyword) => {
            let keyword = RESERVED_ROOTS.iter().find(|it| **it == keyword).copied().unwrap_or_default();
            return Err((AddressProblem::ReservedKeyword { keyword }, whole));
        }
        _ => {}
    }
    let [resource_type, name, keys @ ..] = rest else {
        let range = rest.first().map_or(whole, |first| first.range().cover(rest[rest.len() - 1].range()));
        return Err((AddressProblem::TypeAndName, range));
    };
    if resource_type.name().is_none() {
        return Err((AddressProblem::TypeAndName, resource_type.range()));
    }
    if name.name().is_none() {
        return Err((AddressProblem::ResourceName, name.range()));
    }
    match (use_, keys) {
        (_, []) => {}
        (AddressUse::Removed, [first, ..]) => {
            return Err((AddressProblem::ResourceInstanceKey, first.range()));
        }
        (_, [Step::Key(_)]) => {}
        (_, [first]) => return Err((AddressProblem::KeyNotInBrackets, first.range())),
        (_, [_, second, ..]) => return Err((AddressProblem::ExtraOperators, second.range())),
    }
    match use_ {
        AddressUse::Removed if root == "data" => Err((AddressProblem::DataSourceRemoved, whole)),
        AddressUse::Import if !managed => Err((AddressProblem::NotManaged, whole)),
        _ => Ok(AddressKind::Resource),
    }
}

/// HCL's did-you-mean: the first candidate within two edits.
fn name_suggestion<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates.into_iter().find(|candidate| strsim::levenshtein(given, candidate) < 3)
}

/// The schema problems of `file` as diagnostics: a native Terraform
/// configuration file without syntax errors (a broken file's tree is a
/// guess). Read while the file's tree is in memory (the host asks when it
/// reads a file), kept per file.
/// Whether [`schema_diagnostics`] checks the file at `path` against a
/// schema at all: it finds nothing in any other file, and a caller that
/// asks of every file (the host, while each file's tree is in memory) need
/// not make it a memo to say so.
pub fn has_file_schema(path: &camino::Utf8Path) -> bool {
    file_schema(path).is_some()
}

#[salsa::tracked(returns(ref))]
pub fn schema_diagnostics(db: &dyn Db, file: File) -> Vec<Diagnostic> {
    let path = file.path(db);
    let Some(schema) = file_schema(path) else { return Vec::new() };
    if !crate::syntax_diagnostics(db, file).is_empty() {
        return Vec::new();
    }
    if file.syntax(db) == db::SourceSyntax::Json {
        let override_file = vfs::is_terraform_override_file(path);
        let problems = check_json_file(path.as_str(), file.text(db), override_file, schema);
        return problems.into_iter().map(|placed| to_diagnostic(file, placed)).collect();
    }
    let parse = db::parse(db, file);
    let file_name = path.file_name().unwrap_or(path.as_str());
    let override_file = vfs::is_terraform_override_file(path);
    let problems = check_file_against(file.text(db), file_name, &parse.tree(), override_file, schema);
    problems.into_iter().map(|placed| to_diagnostic(file, placed)).collect()
}

/// The problems of a JSON file's bodies, as Terraform decodes them: each
/// of its own blocks' bodies by its schema with HCL's JSON decoder, which
/// reports a value of the wrong JSON type where labels or a body go
/// (`"variable": ["name"]`, a resource without its name level) and the
/// names the schema does not have. What a provider defines is read
/// partially, leaving its names alone; `locals` and `required_providers`
/// as arguments only.
fn check_json_file(
    name: &str,
    text: &str,
    override_file: bool,
    schema: &'static Schema,
) -> Vec<PlacedProblem> {
    let source = decode::SourceFile::json(name, text);
    let mut out = Vec::new();
    json_body(&source.body(), schema, override_file, &mut out);
    out
}

fn json_body(
    body: &decode::Body,
    schema: &'static Schema,
    override_file: bool,
    out: &mut Vec<PlacedProblem>,
) {
    let body_schema = decode::BodySchema {
        attributes: schema
            .arguments
            .iter()
            .map(|it| decode::AttributeSchema {
                name: it.name.into(),
                required: it.required && !override_file,
            })
            .collect(),
        blocks: schema
            .blocks
            .iter()
            .filter(|it| it.type_name != "_" && !matches!(it.content, Content::Reserved))
            .map(|it| decode::BlockHeaderSchema {
                type_name: it.type_name.into(),
                label_names: it.label_names.iter().map(|&label| label.into()).collect(),
            })
            .collect(),
    };
    let (content, diagnostics) = match schema.rest {
        Rest::Closed => body.content(&body_schema),
        Rest::Provider | Rest::Arguments => {
            let (content, _, diagnostics) = body.partial_content(&body_schema);
            (content, diagnostics)
        }
    };
    push_json(diagnostics, out);
    for block in &content.blocks {
        let Some(nested) = schema.blocks.iter().find(|it| it.type_name == block.type_name) else { continue };
        match nested.content {
            Content::Schema(schema) => json_body(&block.body, schema, override_file, out),
            Content::Arguments => push_json(block.body.just_attributes().1, out),
            Content::Unchecked | Content::Provider | Content::Reserved => {}
        }
    }
}

fn push_json(diagnostics: decode::Diagnostics, out: &mut Vec<PlacedProblem>) {
    for diagnostic in diagnostics.into_iter().filter(decode::Diagnostic::is_error) {
        let range = diagnostic.subject.map(|it| it.text_range()).unwrap_or_default();
        let problem = SchemaProblem::JsonBody { summary: diagnostic.summary, detail: diagnostic.detail };
        out.push(PlacedProblem { problem, range, first: None });
    }
}

fn to_diagnostic(file: File, placed: PlacedProblem) -> Diagnostic {
    let code = placed.problem.rule_code();
    let severity = rules::rule(code).map_or(crate::Severity::Error, |rule| rule.default_severity);
    let mut diagnostic = Diagnostic::new(severity, code, placed.problem.summary(), file, placed.range)
        .with_note(placed.problem.detail());
    if let Some(first) = placed.first {
        diagnostic = diagnostic.with_secondary_label(first, "first defined here");
    }
    if let Some((name, meant)) = placed.problem.suggested_name() {
        diagnostic = diagnostic.with_suggestion(crate::Suggestion {
            message: format!("replace `{name}` with `{meant}`"),
            edits: vec![crate::Edit { range: placed.range, replacement: meant.to_string() }],
        });
    }
    diagnostic
}

// ---------------------------------------------------------------------------
// Across the files of a module

/// A block of a file that a module has at most one of: one of
/// [`ModuleSingleton`]'s, or a provider's configuration by name and alias.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModuleBlock {
    Singleton(ModuleSingleton),
    Provider { name: SmolStr, alias: Option<SmolStr> },
}

/// The blocks of `file` that [`module_duplicate_blocks`] compares across
/// a module's files, in source order, with their ids in the file's HIR.
#[salsa::tracked(returns(ref))]
pub fn file_module_blocks(db: &dyn Db, file: File) -> Vec<(ModuleBlock, hir::BlockId)> {
    let hir = db::lower(db, file);
    let mut out = Vec::new();
    for &id in &hir.body.blocks {
        let block = &hir.blocks[id];
        match (block.type_name.as_str(), block.labels.as_slice()) {
            ("terraform", []) => {
                for &nested in &block.body.blocks {
                    let kind = match hir.blocks[nested].type_name.as_str() {
                        "backend" => ModuleSingleton::Backend,
                        "state_store" => ModuleSingleton::StateStore,
                        "cloud" => ModuleSingleton::Cloud,
                        "required_providers" => ModuleSingleton::RequiredProviders,
                        _ => continue,
                    };
                    out.push((ModuleBlock::Singleton(kind), nested));
                }
            }
            ("provider", [name]) => {
                let alias = block.body.attributes.iter().find(|&&it| hir.attributes[it].name == "alias");
                let alias = match alias {
                    None => None,
                    Some(&attribute) => {
                        let value = eval::eval_expr(
                            &hir.exprs,
                            hir.attributes[attribute].value,
                            &eval::Context::none(),
                        );
                        match value.ok().as_ref().and_then(|it| it.as_str()) {
                            Some(alias) => Some(SmolStr::new(alias)),
                            // An alias that is no literal string is another finding.
                            None => continue,
                        }
                    }
                };
                out.push((ModuleBlock::Provider { name: name.clone(), alias }, id));
            }
            _ => {}
        }
    }
    out
}

/// The blocks a module may have once, and each provider configuration,
/// checked across the module's Terraform files as Terraform merges them
/// into one module: a second `backend`, `state_store`, `cloud` or
/// `required_providers` block, or a second configuration of a provider
/// with the same alias. Files in path order, as Terraform reads them;
/// override files are merged, not added, and are left out, as are files
/// with syntax errors. Each diagnostic is in the file of the second
/// block; read per file with [`module_block_diagnostics`].
#[salsa::tracked(returns(ref))]
pub fn module_duplicate_blocks(db: &dyn Db, module: Module) -> Vec<Diagnostic> {
    let mut files: Vec<File> = module::module_files(db, module)
        .iter()
        .copied()
        .filter(|&file| {
            let path = file.path(db);
            vfs::FileKind::of_named(path).language == vfs::Language::Terraform
                && file.syntax(db) == db::SourceSyntax::Native
                && !vfs::is_terraform_override_file(path)
                && db::parses_cleanly(db, file)
        })
        .collect();
    files.sort_by(|a, b| a.path(db).cmp(b.path(db)));
    // Each block found: its kind, its file and its block id, from each
    // file's own list (kept per file, so that an edit of one file reads
    // the others' lists, not their trees).
    let mut singletons: Vec<(ModuleSingleton, File, hir::BlockId)> = Vec::new();
    let mut providers: Vec<((SmolStr, Option<SmolStr>), File, hir::BlockId)> = Vec::new();
    for &file in &files {
        for (block, id) in file_module_blocks(db, file) {
            match block {
                ModuleBlock::Singleton(kind) => singletons.push((*kind, file, *id)),
                ModuleBlock::Provider { name, alias } => {
                    providers.push(((name.clone(), alias.clone()), file, *id))
                }
            }
        }
    }
    let header = |file: File, id: hir::BlockId| -> Option<TextRange> {
        let pointer = db::source_map(db, file).block_syntax(id)?;
        let node = pointer.try_to_node(&db::parse(db, file).syntax_node())?;
        Header::of(ast::Block::cast(node)?).map(|header| header.def_range())
    };
    let mut out = Vec::new();
    let mut report = |problem_of: &dyn Fn(String) -> SchemaProblem,
                      first: (File, hir::BlockId),
                      second: (File, hir::BlockId)| {
        let (Some(first_range), Some(range)) = (header(first.0, first.1), header(second.0, second.1)) else {
            return;
        };
        let problem = problem_of(terraform_range(db, first.0, first_range));
        let placed = PlacedProblem { problem, range, first: (first.0 == second.0).then_some(first_range) };
        out.push(to_diagnostic(second.0, placed));
    };
    for (index, &(kind, file, id)) in singletons.iter().enumerate() {
        if let Some(&(_, first_file, first_id)) = singletons[..index].iter().find(|it| it.0 == kind) {
            report(
                &|first| SchemaProblem::SecondInModule { kind, first },
                (first_file, first_id),
                (file, id),
            );
        }
    }
    for (index, ((name, alias), file, id)) in providers.iter().enumerate() {
        if let Some((_, first_file, first_id)) =
            providers[..index].iter().find(|it| it.0 == (name.clone(), alias.clone()))
        {
            let problem =
                |first| SchemaProblem::DuplicateProvider { name: name.clone(), alias: alias.clone(), first };
            report(&problem, (*first_file, *first_id), (*file, *id));
        }
    }
    out
}

/// The diagnostics of [`module_duplicate_blocks`] in `file`.
pub fn module_block_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<Diagnostic> {
    let all = module_duplicate_blocks(db, module);
    if all.is_empty() {
        return Vec::new();
    }
    all.iter().filter(|diagnostic| diagnostic.file == file).cloned().collect()
}

// ---------------------------------------------------------------------------
// References by name

/// The references in `file`'s `depends_on` and `lifecycle` blocks'
/// `replace_triggered_by` that name nothing the module declares, as
/// `terraform validate` reports them ("Reference to undeclared resource").
/// Such attributes are lists of references, never evaluated, so the module
/// model does not resolve them as it resolves expressions; each reference
/// is resolved here as one in an expression would be. A native file only:
/// a JSON file writes them as strings.
pub fn static_reference_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    if file.syntax(db) != db::SourceSyntax::Native {
        return Vec::new();
    }
    let hir = db::lower(db, file);
    // The source map only where a reference names nothing: an edit of a
    // file without such references reads no positions.
    let mut out = Vec::new();
    let mut check = |body: &hir::Body, address: Vec<SmolStr>, has_lifecycle: bool| {
        let mut lists: Vec<(hir::ExprId, &str)> = Vec::new();
        for &attribute in &body.attributes {
            if hir[attribute].name == "depends_on" {
                lists.push((hir[attribute].value, "depends_on"));
            }
        }
        for &block in
            body.blocks.iter().filter(|&&block| has_lifecycle && hir[block].type_name == "lifecycle")
        {
            for &attribute in &hir[block].body.attributes {
                if hir[attribute].name == "replace_triggered_by" {
                    lists.push((hir[attribute].value, "replace_triggered_by"));
                }
            }
        }
        for (list, name) in lists {
            // Anything but a list literal is Terraform's "A static list
            // expression is required", another finding.
            let hir::Expr::Tuple(elements) = &hir.exprs[list] else { continue };
            let mut at = address.clone();
            at.push(SmolStr::new(name));
            let at = Address::new(at);
            for &element in elements {
                for reference in references(&hir.exprs, element) {
                    out.extend(unresolved_static_reference(db, module, file, &at, &reference));
                }
            }
        }
    };
    for &block in &hir.body.blocks {
        let block = &hir[block];
        let mut address = vec![block.type_name.clone()];
        address.extend(block.labels.iter().cloned());
        match block.type_name.as_str() {
            "resource" | "data" | "ephemeral" => check(&block.body, address, true),
            "module" | "output" => check(&block.body, address, false),
            "check" => {
                for &nested in &block.body.blocks {
                    if hir[nested].type_name == "data" {
                        let mut address = address.clone();
                        address.push(hir[nested].type_name.clone());
                        address.extend(hir[nested].labels.iter().cloned());
                        check(&hir[nested].body, address, false);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The diagnostic of `reference`, written in `file` in an attribute at `at`
/// that is never evaluated, if it names nothing: resolved as an expression's
/// reference would be, and placed at the step that failed.
fn unresolved_static_reference(
    db: &dyn Db,
    module: Module,
    file: File,
    at: &Address,
    reference: &module::Reference,
) -> Option<ModuleDiagnostic> {
    let target = module::resolve_static_reference(db, module, at, &reference.root, &reference.attrs);
    let module::Target::Unresolved { step, kind, detail } = target else { return None };
    let link = reference.links.get(step).or(reference.links.last()).copied()?;
    let range = db::source_map(db, file).expr_syntax(link)?.text_range();
    Some(ModuleDiagnostic {
        file,
        range,
        kind: ModuleDiagnosticKind::Unresolved(*kind),
        detail: detail.into_string(),
        related: Vec::new(),
    })
}
/// Calls of functions Terraform does not have, wherever they are in a
/// Terraform file: `terraform validate` evaluates every expression of the
/// configuration, so a misspelled function is reported even where the
/// values around it are unknown (a condition's branches, a `for`
/// expression's body, a `dynamic` block's `for_each` and `content`), where
/// the module model's evaluation does not reach it. The `type` of a
/// variable or an output is a type constraint, not an expression: its
/// calls (`list(string)`) are the type constraint rule's. Namespaced calls are
/// [`module::provider_function_diagnostics`]'s. A native file only: a JSON
/// file's strings are evaluated, and reported, by the model.
pub fn unknown_function_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    if file.syntax(db) != db::SourceSyntax::Native {
        return Vec::new();
    }
    let hir = db::lower(db, file);
    let dialect = module.dialect(db);
    let table = dialect.functions(db);
    let mut out = Vec::new();
    // The source map and the type constraints' ranges only where a call is
    // not a function's: most files have none, but a module whose variables
    // have object types has a call (`object`, `optional`) for each part.
    let mut found: Option<(&hir::SourceMap, Vec<TextRange>)> = None;
    for (id, expr) in hir.exprs.iter() {
        let hir::Expr::Call(call) = expr else { continue };
        if call.name.contains("::") || table.functions().contains_key(call.name.as_str()) {
            continue;
        }
        let (source_map, type_ranges) = found.get_or_insert_with(|| {
            (db::source_map(db, file), type_constraint_ranges(&db::parse(db, file).syntax_node()))
        });
        let Some(pointer) = source_map.expr_syntax(id) else { continue };
        let range = pointer.text_range();
        if type_ranges.iter().any(|it| it.contains_range(range)) {
            continue;
        }
        let node = pointer.to_node(&db::parse(db, file).syntax_node());
        let suggestion = eval::suggest(&call.name, table.functions().keys().map(String::as_str));
        let detail = match &suggestion {
            Some(s) => format!("There is no function named {:?}. Did you mean {s:?}?", call.name),
            None => format!("There is no function named {:?}.", call.name),
        };
        out.push(ModuleDiagnostic {
            file,
            range: node.text_range(),
            kind: ModuleDiagnosticKind::Eval(eval::EvalErrorKind::UnknownFunction {
                name: SmolStr::from(call.name),
                suggestion: suggestion.map(SmolStr::from),
            }),
            detail,
            related: Vec::new(),
        });
    }
    out.sort_by_key(|diagnostic| (diagnostic.range.start(), diagnostic.range.end()));
    out
}

/// The ranges of the `type` arguments of the `variable` and `output`
/// blocks under `root`: a node is inside a type constraint when one of
/// them holds it (an attribute's expression holds no other attribute).
/// Found once per file, rather than by walking up from each call.
fn type_constraint_ranges(root: &syntax::SyntaxNode) -> Vec<TextRange> {
    let mut out = Vec::new();
    let mut bodies: Vec<ast::Body> =
        ast::SourceFile::cast(root.clone()).and_then(|file| file.body()).into_iter().collect();
    while let Some(body) = bodies.pop() {
        for block in body.blocks() {
            let Some(inner) = block.body() else { continue };
            if block.ident_token().is_some_and(|name| matches!(name.text(), "variable" | "output")) {
                let types = inner
                    .attributes()
                    .filter(|it| it.ident_token().is_some_and(|name| name.text() == "type"));
                out.extend(types.map(|it| it.syntax().text_range()));
            }
            bodies.push(inner);
        }
    }
    out
}

/// References to `var.NAME` and `local.NAME` inside `dynamic` blocks that
/// name nothing. The module model leaves a native file's `dynamic` blocks
/// out (their content refers to the iterator, which only the expansion
/// binds), so nothing else resolves their references; `terraform validate`
/// reports such a reference ("Reference to undeclared local value") in a
/// `dynamic` block's `for_each`, `labels` and `content` alike. Only these
/// two roots: an iterator may take any other name, and what the expansion
/// binds is not known here.
pub fn dynamic_block_reference_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    if file.syntax(db) != db::SourceSyntax::Native {
        return Vec::new();
    }
    let hir = db::lower(db, file);
    let mut out = Vec::new();
    // The top-level blocks' bodies, then every nested body; a `dynamic`
    // block's attributes and its nested blocks' are collected.
    let mut stack: Vec<(&hir::Body, Vec<SmolStr>, bool)> = Vec::new();
    for &block in &hir.body.blocks {
        let block = &hir[block];
        if matches!(block.type_name.as_str(), "variable" | "locals" | "output" | "terraform") {
            continue;
        }
        let mut address = vec![block.type_name.clone()];
        address.extend(block.labels.iter().cloned());
        stack.push((&block.body, address, false));
    }
    while let Some((body, address, in_dynamic)) = stack.pop() {
        if in_dynamic {
            for &attribute in &body.attributes {
                let mut at = address.clone();
                at.push(hir[attribute].name.clone());
                let at = Address::new(at);
                for reference in references(&hir.exprs, hir[attribute].value) {
                    if !matches!(reference.root.as_str(), "var" | "local") {
                        continue;
                    }
                    out.extend(unresolved_static_reference(db, module, file, &at, &reference));
                }
            }
        }
        for &nested in &body.blocks {
            let nested = &hir[nested];
            let mut at = address.clone();
            at.push(nested.type_name.clone());
            stack.push((&nested.body, at, in_dynamic || nested.type_name == "dynamic"));
        }
    }
    out.sort_by_key(|diagnostic| (diagnostic.range.start(), diagnostic.range.end()));
    out
}

/// Reads of an output a local child module does not have: `module.NAME.OUT`
/// (`module.NAME[KEY].OUT` for a call with `count` or `for_each`), where
/// the call's `source` is a local directory whose files all parse and
/// declare no output `OUT`. Terraform validates a module call's value as
/// an object of the child's outputs, so it reports such a read as HCL does
/// ("Unsupported attribute", with a did-you-mean), unless `try` or `can`
/// catches it. `interface_of` finds a
/// child by its directory (see [`module::child_interface`]); a child not
/// found is not checked. Addresses in `moved`, `import` and `removed`
/// blocks name resources inside the child, not outputs, and are left out.
pub fn module_output_diagnostics(
    db: &dyn Db,
    module: Module,
    file: File,
    interface_of: impl Fn(&camino::Utf8Path) -> Option<std::sync::Arc<module::ModuleInterface>>,
) -> Vec<ModuleDiagnostic> {
    if file.syntax(db) != db::SourceSyntax::Native {
        return Vec::new();
    }
    let calls = module::module_calls(db, module);
    if calls.is_empty() {
        return Vec::new();
    }
    let hir = db::lower(db, file);
    // Inside `try` or `can`, a missing output is an evaluation error the
    // call catches, as Terraform evaluates it.
    let caught = module::caught_by_try(hir);
    let mut out = Vec::new();
    for (id, expr) in hir.exprs.iter() {
        let hir::Expr::GetAttr { base, name: output } = expr else { continue };
        if caught.get(id.into_raw().into_u32() as usize).copied().unwrap_or(false) {
            continue;
        }
        let (call_expr, indexed) = match &hir.exprs[*base] {
            hir::Expr::Index { base, .. } | hir::Expr::LegacyIndex { base, .. } => (*base, true),
            _ => (*base, false),
        };
        let hir::Expr::GetAttr { base: root, name: call_name } = &hir.exprs[call_expr] else { continue };
        if !matches!(&hir.exprs[*root], hir::Expr::Variable(root) if root == "module") {
            continue;
        }
        let Some(call) = calls.iter().find(|call| call.name == *call_name) else { continue };
        let repeated = module::block(db, module, "module", &[SmolStr::from(*call_name)])
            .is_some_and(|block| block.attributes.iter().any(|it| it == "count" || it == "for_each"));
        if indexed != repeated {
            continue;
        }
        let Some(interface) = interface_of(&call.dir) else { continue };
        if !interface.complete || interface.outputs.iter().any(|it| it == output) {
            continue;
        }
        // The source map only where an output is missing.
        let Some(pointer) = db::source_map(db, file).expr_syntax(id) else { continue };
        let node = pointer.to_node(&db::parse(db, file).syntax_node());
        let in_address_block = node.ancestors().filter_map(ast::Block::cast).any(|block| {
            block.ident_token().is_some_and(|name| matches!(name.text(), "moved" | "import" | "removed"))
        });
        if in_address_block {
            continue;
        }
        let range = ast::GetAttrExpr::cast(node.clone())
            .and_then(|get| {
                let name = get.name()?;
                let start = get.dot_token().map_or(name.text_range().start(), |dot| dot.text_range().start());
                Some(TextRange::new(start, name.text_range().end()))
            })
            .unwrap_or_else(|| node.text_range());
        let suggestion =
            eval::suggest(output, interface.outputs.iter().map(SmolStr::as_str)).map(SmolStr::new);
        let detail = match &suggestion {
            Some(meant) => {
                format!(
                    "This object does not have an attribute named {:?}. Did you mean {meant:?}?",
                    output.as_str()
                )
            }
            None => format!("This object does not have an attribute named {:?}.", output.as_str()),
        };
        out.push(ModuleDiagnostic {
            file,
            range,
            kind: ModuleDiagnosticKind::Unresolved(module::Unresolved::UnsupportedAttribute {
                name: SmolStr::from(*output),
                suggestion,
            }),
            detail,
            related: Vec::new(),
        });
    }
    out.sort_by_key(|diagnostic| (diagnostic.range.start(), diagnostic.range.end()));
    out
}

// ---------------------------------------------------------------------------
// What a body may hold, for completion

/// The names Terraform's own schemas expect in one body: what an editor
/// offers where an argument or a nested block may be written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ExpectedNames {
    /// Each argument's name, and whether it is required.
    pub arguments: Vec<(&'static str, bool)>,
    /// Each nested block type, with the names of its labels.
    pub blocks: Vec<(&'static str, &'static [&'static str])>,
}

/// What a body reached from a file's top level through the blocks of
/// `path`'s types (`[]` for the top level, `["resource", "lifecycle"]`)
/// may hold by Terraform's schemas, or `None` where Terraform does not say
/// (a `locals` block's names, a backend's body). In a body a provider
/// defines (a resource's), only the meta-arguments and `dynamic` are
/// Terraform's. Names Terraform reserves are left out.
pub fn expected_names(path: &[&str]) -> Option<ExpectedNames> {
    enum Body {
        Schema(&'static Schema),
        Provider,
    }
    let mut body = Body::Schema(&FILE);
    for &type_name in path {
        body = match body {
            Body::Provider if type_name == "dynamic" => Body::Schema(&DYNAMIC),
            Body::Provider => Body::Provider,
            Body::Schema(schema) => {
                let nested = schema.blocks.iter().find(|it| it.type_name == type_name);
                match nested.map(|it| it.content) {
                    Some(Content::Schema(inner)) => Body::Schema(inner),
                    Some(Content::Provider) => Body::Provider,
                    Some(_) => return None,
                    None if type_name == "dynamic" && schema.rest == Rest::Provider => Body::Schema(&DYNAMIC),
                    None if schema.blocks.iter().any(|it| it.type_name == "_") => Body::Provider,
                    None => return None,
                }
            }
        };
    }
    let dynamic = ("dynamic", DYNAMIC_LABELS);
    Some(match body {
        Body::Provider => ExpectedNames { arguments: Vec::new(), blocks: vec![dynamic] },
        Body::Schema(schema) => {
            let mut blocks: Vec<(&'static str, &'static [&'static str])> = schema
                .blocks
                .iter()
                .filter(|it| it.type_name != "_" && !matches!(it.content, Content::Reserved))
                .map(|it| (it.type_name, it.label_names))
                .collect();
            if schema.rest == Rest::Provider {
                blocks.push(dynamic);
            }
            ExpectedNames {
                arguments: schema.arguments.iter().map(|it| (it.name, it.required)).collect(),
                blocks,
            }
        }
    })
}

/// A range of `file` as Terraform prints one (see [`terraform_range_in`]).
pub(crate) fn terraform_range(db: &dyn Db, file: File, range: TextRange) -> String {
    let path = file.path(db);
    terraform_range_in(&LineIndex::new(file.text(db)), path.file_name().unwrap_or(path.as_str()), range)
}

/// A range as Terraform prints one: `main.tf:3,3-12`, or with both lines
/// when it spans several.
fn terraform_range_in(index: &LineIndex, file_name: &str, range: TextRange) -> String {
    let (start, end) = (index.line_col(range.start()), index.line_col(range.end()));
    if start.line == end.line {
        format!("{file_name}:{},{}-{}", start.line, start.column, end.column)
    } else {
        format!("{file_name}:{},{}-{},{}", start.line, start.column, end.line, end.column)
    }
}

#[cfg(test)]
mod expected_names_tests {
    use super::*;

    #[test]
    fn names_follow_the_path_of_block_types() {
        let top = expected_names(&[]).expect("the top level");
        assert!(top.arguments.is_empty());
        assert!(top.blocks.contains(&("resource", &["type", "name"][..])));
        let resource = expected_names(&["resource"]).expect("a resource");
        let arguments: Vec<&str> = resource.arguments.iter().map(|it| it.0).collect();
        assert_eq!(arguments, ["count", "for_each", "provider", "depends_on"]);
        let blocks: Vec<&str> = resource.blocks.iter().map(|it| it.0).collect();
        // `locals` is reserved in a resource, so not offered.
        assert_eq!(blocks, ["lifecycle", "connection", "provisioner", "dynamic"]);
        let lifecycle = expected_names(&["resource", "lifecycle"]).expect("a lifecycle block");
        assert!(lifecycle.arguments.contains(&("prevent_destroy", false)));
        assert!(expected_names(&["output"]).expect("an output").arguments.contains(&("value", true)));
        let nested = expected_names(&["resource", "ingress"]).expect("a provider's nested block");
        assert_eq!(nested.blocks, [("dynamic", DYNAMIC_LABELS)]);
        assert!(
            expected_names(&["resource", "dynamic"])
                .expect("dynamic")
                .arguments
                .contains(&("for_each", true))
        );
        assert_eq!(expected_names(&["locals"]), None);
        assert_eq!(expected_names(&["nonsense"]), None);
    }
}
