//! `cargo xtask mutate-check --terragrunt`: plants mistakes into the real
//! Terragrunt units (`terragrunt.hcl`) of `../shared/corpus/input`, one at
//! a time, and counts how many of them `halite check` finds.
//!
//! A unit is taken when a check of its directory (and of the module it
//! deploys, where that is local) reports no error in its `terragrunt.hcl`.
//! The mistakes: a misspelt `local.NAME`, function, `dependency.NAME` (of
//! a `dependency` block the unit or a file it includes declares, where
//! every include is found by a static path, as Terragrunt finds it) or
//! `include.NAME` (where every include is labelled); a misspelt output in
//! `dependency.NAME.outputs.OUT` where NAME's unit deploys a local module
//! (whose files the check is given); and, where
//! the unit deploys a local Terraform module (`terraform { source }` a
//! local path, or none with `.tf` files beside it), an input key the
//! module does not declare, a required variable's input removed (where no
//! include or `extra_arguments` may set it otherwise), and an input of the
//! wrong type for a variable whose type is written. A mistake is found
//! when the check reports an error in the unit's file with one of the
//! rule codes it calls for. The run prints a table and fails on a miss.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

use anyhow::{Context, ensure};
use syntax::{
    AstNode,
    ast::{self, Expr},
};

use crate::{
    mutate_check::{
        Plant, Tally, argument, block_type, check, contains_word, files_below, misspell_reference,
        misspell_token, report_tallies,
    },
    project_root,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Mistake {
    MisspelledLocal,
    MisspelledFunction,
    MisspelledDependency,
    MisspelledInclude,
    MisspelledDependencyOutput,
    UndeclaredInput,
    MissingRequiredInput,
    WrongTypeInput,
}

const MISTAKES: [Mistake; 8] = [
    Mistake::MisspelledLocal,
    Mistake::MisspelledFunction,
    Mistake::MisspelledDependency,
    Mistake::MisspelledInclude,
    Mistake::MisspelledDependencyOutput,
    Mistake::UndeclaredInput,
    Mistake::MissingRequiredInput,
    Mistake::WrongTypeInput,
];

impl Mistake {
    fn describe(self) -> &'static str {
        match self {
            Mistake::MisspelledLocal => "`local.NAME` misspelled",
            Mistake::MisspelledFunction => "function name misspelled",
            Mistake::MisspelledDependency => "`dependency.NAME` misspelled",
            Mistake::MisspelledInclude => "`include.NAME` misspelled",
            Mistake::MisspelledDependencyOutput => "dependency output the module does not have",
            Mistake::UndeclaredInput => "input the module does not declare",
            Mistake::MissingRequiredInput => "required variable left out",
            Mistake::WrongTypeInput => "input of the wrong type",
        }
    }

    fn codes(self) -> &'static [&'static str] {
        match self {
            Mistake::MisspelledLocal | Mistake::MisspelledDependency | Mistake::MisspelledInclude => {
                &["undeclared-reference"]
            }
            Mistake::MisspelledFunction => &["unknown-function"],
            Mistake::MisspelledDependencyOutput => &["unknown-attribute"],
            Mistake::UndeclaredInput => &["unused-input"],
            Mistake::MissingRequiredInput => &["missing-input"],
            Mistake::WrongTypeInput => &["invalid-variable-value"],
        }
    }

    /// Whether a warning reports the mistake: Terragrunt's own
    /// `hcl validate --inputs` gives unused and missing inputs as
    /// warnings (the environment or a variables file may set a
    /// variable, and Terraform ignores a `TF_VAR_` no variable takes).
    fn is_warning(self) -> bool {
        matches!(self, Mistake::UndeclaredInput | Mistake::MissingRequiredInput)
    }

    fn plant(
        self,
        text: &str,
        module: Option<&TerraformModule>,
        context: &UnitContext,
        taken: &dyn Fn(&str) -> bool,
    ) -> Option<Plant> {
        let parse = syntax::parse(text);
        if !parse.ok() {
            return None;
        }
        let root = parse.syntax_node();
        let body = parse.tree().body()?;
        let top: Vec<ast::Block> = body.blocks().collect();
        let labels_of = |ty: &str| -> BTreeSet<String> {
            top.iter().filter(|block| block_type(block) == ty).filter_map(first_label).collect()
        };
        let inputs = || -> Option<ast::ObjectExpr> {
            let attribute =
                body.attributes().find(|it| it.ident_token().is_some_and(|t| t.text() == "inputs"))?;
            match attribute.expr()? {
                Expr::ObjectExpr(object) => Some(object),
                _ => None,
            }
        };
        let includes = top.iter().filter(|block| block_type(block) == "include").count();
        let complete = includes == 0 && !text.contains("extra_arguments");
        match self {
            Mistake::MisspelledLocal => misspell_reference(&root, "local", taken),
            Mistake::MisspelledFunction => root
                .descendants()
                .filter_map(ast::FunctionCall::cast)
                .filter(|call| call.colon2_token().is_none())
                .find_map(|call| misspell_token(&call.ident_token()?, taken)),
            // A unit with an include may use the included file's
            // dependencies: where every include is found as Terragrunt
            // finds it (a static path), they are the unit's too.
            Mistake::MisspelledDependency if includes == 0 || context.includes_read => {
                let mut declared = labels_of("dependency");
                declared.extend(context.included_dependencies.iter().cloned());
                misspell_declared(&root, "dependency", &declared, taken)
            }
            Mistake::MisspelledDependency => None,
            // `dependency.NAME.outputs.OUT` where the unit of NAME deploys
            // a local module that declares OUT.
            Mistake::MisspelledDependencyOutput => {
                root.descendants().filter_map(ast::GetAttrExpr::cast).find_map(|get| {
                    let Some(Expr::GetAttrExpr(outputs)) = get.expr() else { return None };
                    let Some(Expr::GetAttrExpr(dependency)) = outputs.expr() else { return None };
                    let Some(Expr::Variable(variable)) = dependency.expr() else { return None };
                    (variable.ident_token()?.text() == "dependency").then_some(())?;
                    (outputs.ident_token()?.text() == "outputs").then_some(())?;
                    let deployed = context.dependency_modules.get(dependency.ident_token()?.text())?;
                    let output = get.ident_token()?;
                    deployed.outputs.contains(output.text()).then_some(())?;
                    misspell_token(&output, &|word| taken(word) || deployed.outputs.contains(word))
                })
            }
            // A bare `include` block's attributes are `include.NAME` in
            // the generic model: only where every include has a label.
            Mistake::MisspelledInclude if labels_of("include").len() == includes => {
                misspell_declared(&root, "include", &labels_of("include"), taken)
            }
            Mistake::MisspelledInclude => None,
            Mistake::UndeclaredInput => {
                module?;
                inputs()?.object_items().find_map(|item| {
                    let key = item.object_item_key()?;
                    let token = key.syntax().first_token()?;
                    (token.kind() == syntax::SyntaxKind::IDENT).then_some(())?;
                    misspell_token(&token, taken)
                })
            }
            Mistake::MissingRequiredInput => {
                let module = module?;
                if !complete {
                    return None;
                }
                inputs()?.object_items().find_map(|item| {
                    let key = key_text(&item)?;
                    module.variables.get(&key).filter(|it| it.required)?;
                    Some(Plant { range: item.syntax().text_range(), replacement: String::new() })
                })
            }
            Mistake::WrongTypeInput => {
                let module = module?;
                inputs()?.object_items().find_map(|item| {
                    let key = key_text(&item)?;
                    let ty = module.variables.get(&key)?.ty.as_deref()?;
                    let wrong = match ty {
                        "string" => "[\"wrong\", \"type\"]",
                        "number" => "\"not-a-number\"",
                        "bool" => "\"not-a-bool\"",
                        _ if ["list(", "set(", "map(", "object(", "tuple("]
                            .iter()
                            .any(|it| ty.starts_with(it)) =>
                        {
                            "\"not-a-collection\""
                        }
                        _ => return None,
                    };
                    let value = item.syntax().children().filter_map(Expr::cast).last()?;
                    Some(Plant { range: value.syntax().text_range(), replacement: wrong.to_owned() })
                })
            }
        }
    }
}

fn first_label(block: &ast::Block) -> Option<String> {
    let text = block.syntax().children_with_tokens().find_map(|it| {
        let text = it.to_string();
        let text = text.trim();
        (text.starts_with('"')).then(|| text.trim_matches('"').to_owned())
    });
    text.or_else(|| {
        block
            .syntax()
            .children_with_tokens()
            .filter_map(|it| it.into_token())
            .filter(|it| it.kind() == syntax::SyntaxKind::IDENT)
            .nth(1)
            .map(|it| it.text().to_owned())
    })
}

fn key_text(item: &ast::ObjectItem) -> Option<String> {
    let key = item.object_item_key()?.syntax().text().to_string();
    Some(key.trim().trim_matches('"').to_owned())
}

/// The first `ROOT.NAME` with `NAME` one of `declared`, misspelled.
fn misspell_declared(
    node: &syntax::SyntaxNode,
    root: &str,
    declared: &BTreeSet<String>,
    taken: &dyn Fn(&str) -> bool,
) -> Option<Plant> {
    node.descendants().filter_map(ast::GetAttrExpr::cast).find_map(|get| {
        let Some(Expr::Variable(variable)) = get.expr() else { return None };
        if variable.ident_token()?.text() != root {
            return None;
        }
        let name = get.ident_token()?;
        declared.contains(name.text()).then_some(())?;
        misspell_token(&name, taken)
    })
}

struct Variable {
    required: bool,
    /// The `type` as written, blanks removed.
    ty: Option<String>,
}

/// What a unit's local module declares, read from its `.tf` files.
struct TerraformModule {
    dir: PathBuf,
    variables: BTreeMap<String, Variable>,
}

fn read_module(dir: &Path) -> Option<TerraformModule> {
    let mut variables = BTreeMap::new();
    let parses = module_parses(dir)?;
    for parse in &parses {
        for block in parse.tree().body()?.blocks().filter(|block| block_type(block) == "variable") {
            let Some(name) = first_label(&block) else { continue };
            let required = argument(&block, "default").is_none();
            let ty = argument(&block, "type")
                .and_then(|it| it.expr())
                .map(|it| it.syntax().text().to_string().split_whitespace().collect());
            variables.insert(name, Variable { required, ty });
        }
    }
    (!parses.is_empty()).then(|| TerraformModule { dir: dir.to_owned(), variables })
}

/// The parses of the `.tf` files of the module in `dir`; `None` when the
/// directory or one of them cannot be read.
fn module_parses(dir: &Path) -> Option<Vec<syntax::Parse<ast::SourceFile>>> {
    let mut parses = Vec::new();
    for entry in std::fs::read_dir(dir).ok()? {
        let path = entry.ok()?.path();
        if path.extension().is_none_or(|ext| ext != "tf") {
            continue;
        }
        parses.push(syntax::parse(&std::fs::read_to_string(&path).ok()?));
    }
    Some(parses)
}

/// The directory a `terraform { source = "…" }` names, when it is a plain
/// relative path (no interpolation, no query, no remote address).
fn local_source(dir: &Path, source: &ast::Attribute) -> Option<PathBuf> {
    let text = source.expr()?.syntax().text().to_string();
    let text = text.trim().strip_prefix('"')?.strip_suffix('"')?;
    if text.contains("${") || !(text.starts_with("./") || text.starts_with("../")) || text.contains('?') {
        return None;
    }
    Some(dir.join(text.replace("//", "/")))
}

/// The module `text` (a unit in `dir`) deploys, where it is local.
fn unit_module(dir: &Path, text: &str) -> Option<TerraformModule> {
    let parse = syntax::parse(text);
    let body = parse.tree().body()?;
    let terraform = body.blocks().find(|block| block_type(block) == "terraform");
    let source = terraform.as_ref().and_then(|block| argument(block, "source"));
    match source {
        None => read_module(dir),
        Some(source) => read_module(&local_source(dir, &source)?),
    }
}

/// What a unit reads beyond its own file, found as Terragrunt finds it.
#[derive(Default)]
struct UnitContext {
    /// Whether every `include` names a file found by a static path.
    includes_read: bool,
    /// The labels of the `dependency` blocks its included files merge in.
    included_dependencies: BTreeSet<String>,
    /// The local module each dependency's unit deploys, by label.
    dependency_modules: BTreeMap<String, DeployedModule>,
}

struct DeployedModule {
    dir: PathBuf,
    outputs: BTreeSet<String>,
}

/// The string an expression's text is, if it is a quoted literal or a
/// path function's call this harness can follow: `find_in_parent_folders`
/// with a literal name or none, searched from `dir`'s parent upwards, and
/// `"${get_terragrunt_dir()}/…"`.
fn static_path(dir: &Path, expr: &str) -> Option<PathBuf> {
    let expr = expr.trim();
    let call = expr.strip_prefix("\"${").and_then(|it| it.strip_suffix("}\"")).unwrap_or(expr);
    if let Some(args) = call.strip_prefix("find_in_parent_folders(").and_then(|it| it.strip_suffix(')')) {
        let args = args.trim();
        let name =
            if args.is_empty() { "terragrunt.hcl" } else { args.strip_prefix('"')?.strip_suffix('"')? };
        if name.contains('"') || name.contains('$') {
            return None;
        }
        let mut at = dir.parent();
        while let Some(parent) = at {
            if parent.join(name).is_file() {
                return Some(parent.join(name));
            }
            at = parent.parent();
        }
        return None;
    }
    let literal = expr.strip_prefix('"')?.strip_suffix('"')?;
    let (base, rest) = match literal.strip_prefix("${get_terragrunt_dir()}") {
        Some(rest) => (dir, rest.trim_start_matches('/')),
        None => (dir, literal),
    };
    if rest.contains("${") || rest.contains("%{") {
        return None;
    }
    Some(base.join(rest))
}

/// The `dependency` blocks of a configuration: each label and its
/// `config_path`'s text, unless its outputs are not the module's alone
/// (`skip_outputs`, or mocks merged into them).
fn dependency_blocks(body: &ast::Body) -> Vec<(String, Option<String>)> {
    let reads_module_outputs = |block: &ast::Block| {
        ["skip_outputs", "mock_outputs_merge_strategy_with_state", "mock_outputs_merge_with_state"]
            .iter()
            .all(|name| argument(block, name).is_none())
    };
    body.blocks()
        .filter(|block| block_type(block) == "dependency" && reads_module_outputs(block))
        .filter_map(|block| {
            let path = argument(&block, "config_path")
                .and_then(|it| it.expr())
                .map(|it| it.syntax().text().to_string());
            Some((first_label(&block)?, path))
        })
        .collect()
}

/// The local module the unit in `dir` deploys, with its outputs.
fn deployed_module(dir: &Path) -> Option<DeployedModule> {
    let text = std::fs::read_to_string(dir.join("terragrunt.hcl")).ok()?;
    let parse = syntax::parse(&text);
    let body = parse.tree().body()?;
    let source = body
        .blocks()
        .find(|block| block_type(block) == "terraform")
        .and_then(|block| argument(&block, "source"));
    let module_dir = match source {
        None if body.blocks().all(|block| block_type(&block) != "include") => dir.to_owned(),
        None => return None,
        Some(source) => local_source(dir, &source)?,
    };
    let mut outputs = BTreeSet::new();
    let parses = module_parses(&module_dir)?;
    for parse in &parses {
        if !parse.ok() {
            return None;
        }
        for block in parse.tree().body()?.blocks().filter(|block| block_type(block) == "output") {
            outputs.extend(first_label(&block));
        }
    }
    (!parses.is_empty()).then_some(DeployedModule { dir: module_dir, outputs })
}

/// What the unit `text` in `dir` reads: its includes, where each is
/// found by a static path and includes nothing more, and the modules its
/// dependencies' units deploy.
fn unit_context(dir: &Path, text: &str) -> UnitContext {
    let mut context = UnitContext { includes_read: true, ..UnitContext::default() };
    let parse = syntax::parse(text);
    let Some(body) = parse.tree().body() else { return UnitContext::default() };
    let mut dependencies = dependency_blocks(&body);
    for include in body.blocks().filter(|block| block_type(block) == "include") {
        let path =
            argument(&include, "path").and_then(|it| it.expr()).map(|it| it.syntax().text().to_string());
        let Some(file) = path.and_then(|path| static_path(dir, &path)).filter(|it| it.is_file()) else {
            context.includes_read = false;
            continue;
        };
        let Ok(included) = std::fs::read_to_string(&file) else {
            context.includes_read = false;
            continue;
        };
        let parse = syntax::parse(&included);
        let Some(included) = parse.tree().body() else { continue };
        if included.blocks().any(|block| block_type(&block) == "include") {
            context.includes_read = false;
        }
        let no_merge = argument(&include, "merge_strategy")
            .and_then(|it| it.expr())
            .is_some_and(|it| it.syntax().text().to_string().contains("no_merge"));
        if no_merge {
            continue;
        }
        for (label, path) in dependency_blocks(&included) {
            context.included_dependencies.insert(label.clone());
            if dependencies.iter().all(|(own, _)| *own != label) {
                dependencies.push((label, path));
            }
        }
    }
    for (label, path) in dependencies {
        let Some(dependency_dir) = path.and_then(|path| static_path(dir, &path)) else { continue };
        if let Some(deployed) = deployed_module(&dependency_dir) {
            context.dependency_modules.insert(label, deployed);
        }
    }
    context
}

/// The `terragrunt.hcl` files below `input`, outside hidden directories.
fn units(input: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = files_below(input, |name| name == "terragrunt.hcl")?
        .into_iter()
        .map(|(dir, name)| dir.join(name).strip_prefix(input).expect("below the input").to_path_buf())
        .collect();
    out.sort();
    Ok(out)
}

/// The files a unit's check reads: the unit's directory's HCL files and
/// its local module's.
fn check_files(dir: &Path, module: Option<&TerraformModule>) -> anyhow::Result<Vec<String>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') && (name.ends_with(".hcl") || name.ends_with(".tf")) {
            files.push(name);
        }
    }
    if let Some(module) = module
        && module.dir.canonicalize().ok() != dir.canonicalize().ok()
    {
        let relative = pathdiff(&module.dir, dir);
        for entry in std::fs::read_dir(&module.dir)? {
            let name = entry?.file_name().to_string_lossy().into_owned();
            if name.ends_with(".tf") {
                files.push(relative.join(&name).to_string_lossy().into_owned());
            }
        }
    }
    files.sort();
    Ok(files)
}

/// `to` relative to `from`, both below one scratch directory.
fn pathdiff(to: &Path, from: &Path) -> PathBuf {
    let (to, from) = (to.canonicalize().unwrap_or(to.into()), from.canonicalize().unwrap_or(from.into()));
    let common = to.components().zip(from.components()).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in from.components().skip(common) {
        out.push("..");
    }
    for part in to.components().skip(common) {
        out.push(part);
    }
    out
}

pub(crate) fn run(halite: &Path) -> anyhow::Result<()> {
    let input = project_root().join("../shared/corpus/input");
    let input = input.canonicalize().with_context(|| format!("no corpus at {}", input.display()))?;
    let scratch = tempfile::tempdir().context("creating a scratch directory")?;
    let mut copied = BTreeSet::new();
    let mut tallies: BTreeMap<Mistake, Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut units_used = 0;
    for unit in units(&input)? {
        let repository = unit.components().next().context("a unit below a repository")?;
        let repository = repository.as_os_str().to_string_lossy().into_owned();
        if copied.insert(repository.clone()) {
            crate::copy_tree(&input.join(&repository), &scratch.path().join(&repository))
                .with_context(|| format!("copying {repository}"))?;
        }
        let path = scratch.path().join(&unit);
        let dir = path.parent().context("a unit in a directory")?.to_path_buf();
        let text = std::fs::read_to_string(&path)?;
        let module = unit_module(&dir, &text);
        let context = unit_context(&dir, &text);
        let mut files = check_files(&dir, module.as_ref())?;
        // The modules its dependencies' units deploy, so that their
        // outputs are known to the check.
        for deployed in context.dependency_modules.values() {
            let relative = pathdiff(&deployed.dir, &dir);
            for entry in std::fs::read_dir(&deployed.dir)? {
                let name = entry?.file_name().to_string_lossy().into_owned();
                let file = relative.join(&name).to_string_lossy().into_owned();
                if name.ends_with(".tf") && !files.contains(&file) {
                    files.push(file);
                }
            }
        }
        files.sort();
        let is_unit = |file: &str| file.trim_start_matches("./") == "terragrunt.hcl";
        let baseline = check(halite, &dir, &files)?;
        if baseline.iter().any(|finding| finding.severity == "error" && is_unit(&finding.file)) {
            continue;
        }
        units_used += 1;
        let mut texts = vec![text.clone()];
        texts.extend(context.included_dependencies.iter().cloned());
        if let Some(module) = &module {
            for variable in module.variables.keys() {
                texts.push(variable.clone());
            }
        }
        let taken = |word: &str| texts.iter().any(|text| contains_word(text, word));
        for mistake in MISTAKES {
            let tally = tallies.entry(mistake).or_default();
            let Some(plant) = mistake.plant(&text, module.as_ref(), &context, &taken) else {
                tally.without_place += 1;
                continue;
            };
            std::fs::write(&path, plant.apply(&text))?;
            let findings = check(halite, &dir, &files);
            std::fs::write(&path, &text)?;
            let findings = findings?;
            tally.planted += 1;
            let found = findings.iter().any(|finding| {
                (finding.severity == "error" || mistake.is_warning())
                    && is_unit(&finding.file)
                    && mistake.codes().contains(&finding.code.as_str())
            });
            if found {
                tally.found += 1;
            } else {
                let said: Vec<String> = findings
                    .iter()
                    .filter(|finding| finding.severity == "error" || mistake.is_warning())
                    .map(|finding| format!("{} in {}", finding.code, finding.file))
                    .collect();
                misses.push(format!(
                    "{}: {} at {:?} ({:?}): {}",
                    mistake.describe(),
                    unit.display(),
                    plant.range,
                    plant.replacement,
                    if said.is_empty() { "no error".to_owned() } else { said.join(", ") }
                ));
            }
        }
    }
    println!(
        "{units_used} Terragrunt units of {} without errors, each mistake planted alone\n",
        input.display()
    );
    ensure!(units_used > 0, "no Terragrunt unit of the corpus is free of errors");
    let rows =
        tallies.iter().map(|(mistake, tally)| (mistake.describe(), mistake.codes().join(" or "), tally));
    report_tallies("units", rows, &misses)
}
