//! The answers to an editor's questions about a position: what a name
//! refers to, where it is declared and used, its value, and how to rename
//! it. Everything is read from a snapshot of the host's database (its
//! syntax trees, the module index, values as evaluated); nothing here
//! changes it, and a change applied meanwhile cancels the reading.

mod highlight;
mod hints;

use std::{
    borrow::Cow,
    collections::BTreeMap,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
};

use camino::Utf8PathBuf;
use db::{
    File, RootDatabase, SourceSyntax,
    module::{self, Address, Attr, Module, RangeOf},
};
use smol_str::SmolStr;
use syntax::{AstNode, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize, ast};
use value::Value;

pub use self::highlight::HighlightKind;

/// What a request reads: a handle on the host's database, the modules it
/// holds by directory (for module calls into child modules), and whether
/// the client has cancelled the request.
pub struct Snapshot {
    pub db: RootDatabase,
    pub modules: Arc<BTreeMap<Utf8PathBuf, Module>>,
    pub cancelled: Arc<AtomicBool>,
}

/// The panic payload that unwinds a request the client cancelled (as
/// salsa's `Cancelled` unwinds one an edit made stale).
#[derive(Debug)]
pub struct ClientCancelled;

impl Snapshot {
    /// Stops the request here if the client has cancelled it: the work
    /// that visits every file of a module or of the workspace asks before
    /// each file, so that a cancelled request does not keep a thread and
    /// the database's handle busy. The panic hook is not run.
    pub fn check_cancelled(&self) {
        if self.cancelled.load(Ordering::Relaxed) {
            std::panic::resume_unwind(Box::new(ClientCancelled));
        }
    }
}

/// A place in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRange {
    pub file: File,
    pub range: TextRange,
}

/// A name under the cursor: a reference (`var.region`) or a declaration
/// (`variable "region"`, a local's name), with what it names.
#[derive(Debug, Clone)]
pub struct Named {
    /// The address in `module` it names.
    pub address: Address,
    pub module: Module,
    /// The range of the name under the cursor.
    pub range: TextRange,
}

impl Snapshot {
    /// The module a file belongs to, by its name and directory.
    pub fn module_of(&self, file: File) -> Option<Module> {
        // The unit the file's dialect groups it into: its directory, or
        // the file alone (a Terragrunt unit).
        let unit = db::Db::dialects(&self.db).unit_of(file.path(&self.db))?;
        self.modules.get(&unit).copied()
    }

    fn root(&self, file: File) -> Option<SyntaxNode> {
        (file.syntax(&self.db) == SourceSyntax::Native).then(|| db::parse(&self.db, file).syntax_node())
    }

    /// The name at `offset` of `file`, if it is one the module can resolve.
    pub fn named_at(&self, file: File, offset: TextSize) -> Option<Named> {
        let module = self.module_of(file)?;
        let root = self.root(file)?;
        let token = ident_at(&root, offset)?;
        if let Some((chain, at)) = chain_at(&token) {
            let (address, module, range) = self.resolve_chain(module, &chain, at)?;
            return Some(Named { address, module, range });
        }
        let (address, range) = declaration_at(&token)?;
        Some(Named { address: self.module_address(module, &address), module, range })
    }

    /// The address by which `module` knows a declaration written
    /// `address`: `resource "T" "N"` is `T.N`.
    fn module_address(&self, module: Module, address: &Address) -> Address {
        let rules = module.dialect(&self.db).rules(&self.db);
        match &address.smol_segments()[..] {
            [kind, rest @ ..] if rules.unprefixed_block_types.contains(kind) => {
                Address::new(rest.iter().map(SmolStr::as_str))
            }
            _ => address.clone(),
        }
    }

    /// What a chain names: an address in `module` or, for `module.NAME.OUTPUT`,
    /// in the child module. `at` is the segment under the cursor.
    fn resolve_chain(
        &self,
        module: Module,
        chain: &[(SmolStr, TextRange)],
        at: usize,
    ) -> Option<(Address, Module, TextRange)> {
        let names: Vec<&str> = chain.iter().map(|(name, _)| name.as_str()).collect();
        match names.as_slice() {
            ["var" | "local", name, ..] => Some((Address::new([names[0], name]), module, chain[1].1)),
            ["module", call, output, ..] if at >= 2 => {
                let calls = module::module_calls(&self.db, module);
                let call = calls.iter().find(|it| it.name == *call)?;
                let child = *self.modules.get(&call.dir)?;
                Some((Address::new(["output", output]), child, chain[2].1))
            }
            ["module", call, ..] => Some((Address::new(["module", call]), module, chain[1].1)),
            ["data", kind, name, ..] => Some((Address::new(["data", kind, name]), module, chain[2].1)),
            [root, name, ..] if !matches!(*root, "each" | "count" | "self" | "path" | "terraform") => {
                let address = Address::new([*root, *name]);
                module::definition(&self.db, module, &address)?;
                Some((address, module, chain[1].1))
            }
            _ => None,
        }
    }

    /// Where `address` of `module` is declared: its name (an attribute's,
    /// a block's header).
    pub fn definition(&self, module: Module, address: &Address) -> Option<FileRange> {
        let definition = module::definition(&self.db, module, address)?;
        let range =
            module::location_range(&self.db, definition.file, definition.location(&self.db), RangeOf::Name);
        Some(FileRange { file: definition.file, range })
    }

    /// The range of the name a rename changes in a declaration: a local's
    /// name, or the last label of a block (a variable's, an output's, a
    /// module call's, a resource's name; inside its quotes).
    fn declaration_name(&self, module: Module, address: &Address) -> Option<FileRange> {
        let found = self.definition(module, address)?;
        let root = self.root(found.file)?;
        let element = root.covering_element(found.range);
        let node = match element {
            syntax::SyntaxElement::Node(node) => node,
            syntax::SyntaxElement::Token(token) => token.parent()?,
        };
        let range = match &address.smol_segments()[..] {
            [root, _] if root == "local" => {
                let attribute = node.ancestors().find(|it| it.kind() == SyntaxKind::ATTRIBUTE)?;
                first_ident(&attribute)?.text_range()
            }
            _ => {
                let block = node.ancestors().find(|it| it.kind() == SyntaxKind::BLOCK)?;
                let label = block.children().filter(|it| it.kind() == SyntaxKind::BLOCK_LABEL).last()?;
                label_name(&label)?.text_range()
            }
        };
        Some(FileRange { file: found.file, range })
    }

    /// Every reference to `address` in the files of `module` (the name's
    /// segment: `region` of `var.region`), in file order.
    pub fn references(&self, module: Module, address: &Address) -> Vec<FileRange> {
        let mut out = Vec::new();
        // A module call's name is the second of `module.NAME.OUTPUT`.
        let is_call = address.smol_segments().first().is_some_and(|it| it == "module");
        for &file in module.files(&self.db) {
            self.check_cancelled();
            let Some(root) = self.root(file) else { continue };
            for variable in root.descendants().filter(|it| it.kind() == SyntaxKind::VARIABLE) {
                let chain = chain_from(&variable);
                let last = if is_call { 1 } else { chain.len().saturating_sub(1) };
                if let Some((found, found_module, range)) = self.resolve_chain(module, &chain, last)
                    && found == *address
                    && found_module == module
                {
                    out.push(FileRange { file, range });
                }
            }
        }
        out
    }

    /// Every reference to an output of the module of `child` through the
    /// calls of the modules the host holds (`module.NAME.OUTPUT`).
    pub fn references_into(&self, child: Module, output: &Address) -> Vec<FileRange> {
        let mut out = Vec::new();
        for &module in self.modules.values() {
            if module == child {
                continue;
            }
            out.extend(self.references_in_callers(module, child, output));
        }
        out
    }

    fn references_in_callers(&self, module: Module, child: Module, output: &Address) -> Vec<FileRange> {
        let calls = module::module_calls(&self.db, module);
        if !calls.iter().any(|call| self.modules.get(&call.dir) == Some(&child)) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for &file in module.files(&self.db) {
            self.check_cancelled();
            let Some(root) = self.root(file) else { continue };
            for variable in root.descendants().filter(|it| it.kind() == SyntaxKind::VARIABLE) {
                let chain = chain_from(&variable);
                if let Some((found, found_module, range)) = self.resolve_chain(module, &chain, 2)
                    && found == *output
                    && found_module == child
                {
                    out.push(FileRange { file, range });
                }
            }
        }
        out
    }

    /// What kind of name `named` is for a rename, or why it cannot be
    /// renamed at all.
    pub fn rename_kind(&self, named: &Named) -> Result<RenameKind, String> {
        let refused = || {
            format!(
                "{} cannot be renamed: only variables, locals, outputs, resources, data sources and \
                 module calls can",
                named.address
            )
        };
        let kind = match &named.address.smol_segments()[..] {
            [root, _] if root == "var" => RenameKind::Variable,
            [root, _] if root == "local" => RenameKind::Local,
            [root, _] if root == "output" => RenameKind::Output,
            [root, _] if root == "module" => RenameKind::ModuleCall,
            [root, _, _] if root == "data" => RenameKind::Resource,
            [root, _] if !highlight::LANGUAGE_ROOTS.contains(&root.as_str()) => {
                let definition = module::definition(&self.db, named.module, &named.address);
                match definition.map(|it| &it.kind) {
                    Some(module::DeclarationKind::Block) => RenameKind::Resource,
                    _ => return Err(refused()),
                }
            }
            _ => return Err(refused()),
        };
        Ok(kind)
    }

    /// The edits that rename a variable, a local, an output, a resource or
    /// data source, or a module call, in every file that names it (an
    /// output's and a variable's callers too), or why it cannot be done
    /// completely.
    pub fn rename(&self, named: &Named, new_name: &str) -> Result<Vec<(FileRange, String)>, String> {
        let kind = self.rename_kind(named)?;
        if !is_identifier(new_name) {
            return Err(format!("`{new_name}` is not an identifier"));
        }
        let module = named.module;
        let segments = named.address.smol_segments();
        let old = segments.last().map(SmolStr::as_str).unwrap_or_default();
        let new_address = Address::new(
            segments[..segments.len() - 1].iter().map(SmolStr::as_str).chain(std::iter::once(new_name)),
        );
        if module::definition(&self.db, module, &new_address).is_some() {
            return Err(format!("{new_address} is already declared"));
        }
        let declaration = self
            .declaration_name(module, &named.address)
            .ok_or_else(|| format!("{} is not declared in this module", named.address))?;
        let mut edits = vec![(declaration, new_name.to_string())];
        if kind == RenameKind::Output {
            // Read only through the callers' `module.CALL.NAME`.
            for (caller, call) in self.calls_of(module) {
                self.check_renamable(caller, &["module", call.name.as_str(), old])?;
            }
            edits.extend(
                self.references_into(module, &named.address).into_iter().map(|it| (it, new_name.to_string())),
            );
        } else {
            let path: Vec<&str> = segments.iter().map(SmolStr::as_str).collect();
            self.check_renamable(module, &path)?;
            edits.extend(
                self.references(module, &named.address).into_iter().map(|it| (it, new_name.to_string())),
            );
        }
        if kind == RenameKind::Variable {
            // The callers' arguments name the variable too.
            for (_, call) in self.calls_of(module) {
                if !matches!(call.arguments_at, module::ArgumentsAt::BlockAttributes(_))
                    && call.arguments.iter().any(|(argument, _)| argument == old)
                {
                    return Err(format!(
                        "{} passes {old} as a key of an object, which this rename does not edit",
                        call.file.path(&self.db)
                    ));
                }
                for (argument, location) in &call.arguments {
                    if argument == old {
                        if call.file.syntax(&self.db) != SourceSyntax::Native {
                            return Err(format!(
                                "{} passes {old} in the JSON syntax, which this rename does not edit",
                                call.file.path(&self.db)
                            ));
                        }
                        let range = module::location_range(&self.db, call.file, location, RangeOf::Name);
                        edits.push((FileRange { file: call.file, range }, new_name.to_string()));
                    }
                }
            }
        }
        edits.sort_by(|(a, _), (b, _)| {
            vfs::path_order(a.file.path(&self.db), b.file.path(&self.db))
                .then(a.range.start().cmp(&b.range.start()))
        });
        edits.dedup_by(|a, b| a.0 == b.0);
        Ok(edits)
    }

    /// The module calls of the modules the host holds that call `child`,
    /// each with its caller.
    fn calls_of(&self, child: Module) -> Vec<(Module, module::ModuleCall)> {
        let dir = self.modules.iter().find(|(_, it)| **it == child).map(|(dir, _)| dir.clone());
        let mut out = Vec::new();
        for &caller in self.modules.values() {
            for call in module::module_calls(&self.db, caller) {
                if Some(&call.dir) == dir.as_ref() {
                    out.push((caller, call.clone()));
                }
            }
        }
        out
    }

    /// Why the references to `address` (`module.CALL.OUTPUT` for an
    /// output, read in a caller) in `module` cannot all be found, if they
    /// cannot: a file in the JSON syntax (its references are inside
    /// strings), a file with syntax errors, or a traversal that stops
    /// short of the name (`local` used whole, `module.CALL` passed as an
    /// object or indexed), through which the name is read unseen.
    fn check_renamable(&self, module: Module, address: &[&str]) -> Result<(), String> {
        for &file in module.files(&self.db) {
            self.check_cancelled();
            let path = file.path(&self.db);
            if file.syntax(&self.db) != SourceSyntax::Native {
                return Err(format!("{path} uses the JSON syntax, whose references this rename cannot edit"));
            }
            if !db::parses_cleanly(&self.db, file) {
                return Err(format!("{path} has syntax errors: fix them first"));
            }
            let Some(tree) = self.root(file) else { continue };
            for variable in tree.descendants().filter(|it| it.kind() == SyntaxKind::VARIABLE) {
                let chain = chain_from(&variable);
                let short = chain.len() < address.len()
                    && chain.iter().zip(address).all(|((name, _), segment)| name == segment);
                if short && !in_for_scope(&variable, address[0]) {
                    let line = text_line(file.text(&self.db), chain[0].1.start());
                    let used: Vec<&str> = chain.iter().map(|(name, _)| name.as_str()).collect();
                    return Err(format!(
                        "`{}` is used whole at {path}:{line}: the names read through it cannot be renamed",
                        used.join(".")
                    ));
                }
            }
        }
        Ok(())
    }

    /// Hover text for a name: its address, value and type, and a
    /// variable's description.
    pub fn hover(&self, named: &Named) -> String {
        let db = &self.db;
        let mut out = format!("**{}**", named.address);
        let attr = Attr::new(db, named.module, named.address.clone());
        let has_value =
            module::definition(db, named.module, &named.address).is_some_and(|def| def.kind.has_value());
        if has_value {
            match module::attribute_value(db, attr) {
                Ok(value) => {
                    out.push_str(&format!(": `{}`\n\n", value.ty().friendly_name()));
                    out.push_str(&describe_value(value));
                }
                Err(error) => {
                    out.push_str(&format!("\n\nNo value: {}", host::describe(db, attr, error)));
                }
            }
        }
        if let Some(description) = self.description(named) {
            out.push_str("\n\n");
            out.push_str(&description);
        }
        out
    }

    /// A variable's default (its expression as written) and its or an
    /// output's `description`.
    fn description(&self, named: &Named) -> Option<String> {
        let address = match &named.address.smol_segments()[..] {
            [root, name] if root == "var" => Address::new(["var", name.as_str()]),
            [root, name] if root == "output" => Address::new(["output", name.as_str()]),
            _ => return None,
        };
        let found = self.definition(named.module, &address)?;
        let tree = self.root(found.file)?;
        let element = tree.covering_element(found.range);
        let start = match element {
            syntax::SyntaxElement::Node(node) => node,
            syntax::SyntaxElement::Token(token) => token.parent()?,
        };
        let block = start.ancestors().find(|it| it.kind() == SyntaxKind::BLOCK)?;
        let body = block.children().find(|it| it.kind() == SyntaxKind::BODY)?;
        let attribute = |name: &str| {
            body.children()
                .filter(|it| it.kind() == SyntaxKind::ATTRIBUTE)
                .find(|it| first_ident(it).is_some_and(|ident| ident.text() == name))
        };
        let mut out = Vec::new();
        if address.smol_segments()[0] == "var"
            && let Some(default) = attribute("default")
            && let Some(expr) = default.children().last()
        {
            let mut text = expr.text().to_string();
            if text.len() > 200 {
                text.truncate(floor_char_boundary(&text, 200));
                text.push_str(" …");
            }
            out.push(format!("Default: `{text}`"));
        }
        if let Some(description) = attribute("description") {
            let text: String = description
                .descendants_with_tokens()
                .filter_map(|it| it.into_token())
                .filter(|it| it.kind() == SyntaxKind::TEMPLATE_TEXT)
                .map(|it| it.text().to_string())
                .collect();
            if !text.is_empty() {
                out.push(text);
            }
        }
        (!out.is_empty()).then(|| out.join("\n\n"))
    }

    /// The signature of the function called at `offset`, if the cursor is
    /// on a call's name.
    pub fn function_at(&self, file: File, offset: TextSize) -> Option<(String, TextRange)> {
        let root = self.root(file)?;
        let token = ident_at(&root, offset)?;
        let name = token.parent().and_then(ast::FunctionCall::cast)?.name()?;
        let functions = self.functions(file);
        let function = functions.get(&name)?;
        Some((signature(&name, function), token.text_range()))
    }

    /// The functions a file's expressions may call: its module's table,
    /// borrowed (the standard library's for a file of no module).
    pub fn functions(&self, file: File) -> Cow<'_, BTreeMap<String, eval::Function>> {
        match self.module_of(file) {
            Some(module) => Cow::Borrowed(module.dialect(&self.db).functions(&self.db).functions()),
            None => Cow::Owned(eval::stdlib::functions()),
        }
    }

    /// Completion items at `offset`: the names under `var.` or `local.`
    /// right before it, or the functions and roots when a bare name is
    /// being typed; those that start with what is typed of the name, at
    /// most [`MAX_COMPLETIONS`] of them, and whether some were left out.
    pub fn completions(&self, file: File, offset: TextSize) -> (Vec<Completion>, bool) {
        let text = file.text(&self.db);
        let offset = usize::from(offset).min(text.len());
        let before = &text[..floor_char_boundary(text, offset)];
        let word_start = before
            .char_indices()
            .rev()
            .take_while(|(_, ch)| ch.is_alphanumeric() || *ch == '_' || *ch == '-')
            .last()
            .map_or(before.len(), |(at, _)| at);
        let (prefix, word) = before.split_at(word_start);
        let module = self.module_of(file);
        let mut out: Vec<Completion> = Vec::new();
        let mut push = |label: &str, kind: CompletionKind, detail: Option<String>| {
            if label.starts_with(word) {
                out.push(Completion { label: label.to_string(), kind, detail });
            }
        };
        let after_root = ["var", "local"].into_iter().find(|root| {
            prefix.strip_suffix('.').is_some_and(|head| {
                head.ends_with(root)
                    && !head[..head.len() - root.len()]
                        .chars()
                        .next_back()
                        .is_some_and(|ch| ch.is_alphanumeric() || ch == '_' || ch == '.')
            })
        });
        match after_root {
            Some(root) => {
                let Some(module) = module else { return (Vec::new(), false) };
                let kind = if root == "var" { CompletionKind::Variable } else { CompletionKind::Local };
                // The names are in order: those that start with the word
                // are one run, found by a search, and no more of it is read
                // than the answer carries (and one to say it is cut short).
                let names = module::names_under(&self.db, module, root);
                let start = names.partition_point(|name| name.as_str() < word);
                for name in
                    names[start..].iter().take_while(|name| name.starts_with(word)).take(MAX_COMPLETIONS + 1)
                {
                    push(name, kind, None);
                }
            }
            None if prefix.ends_with('.') => {}
            None => {
                let root = self.root(file);
                let line_start = prefix.rfind('\n').map_or(0, |at| at + 1);
                let blocks = root.as_ref().map(|root| blocks_around(root, (word_start as u32).into()));
                let in_body = prefix[line_start..].trim().is_empty()
                    && blocks.as_ref().is_some_and(|(_, in_expression)| !in_expression);
                if in_body {
                    // An argument or a nested block, by the schemas.
                    let types: Vec<&str> = blocks
                        .as_ref()
                        .map(|(types, _)| types.iter().map(|it| it.0.as_str()).collect())
                        .unwrap_or_default();
                    for (name, item) in self.expected_names(file, &types) {
                        push(&name, item.kind, item.detail);
                    }
                } else {
                    for (name, function) in
                        self.functions(file).iter().filter(|(name, _)| !name.contains("::"))
                    {
                        if name.starts_with(word) {
                            push(name, CompletionKind::Function, Some(signature(name, function)));
                        }
                    }
                    if module.is_some() {
                        push("var", CompletionKind::Root, None);
                        push("local", CompletionKind::Root, None);
                        // `count`, `each` and `self` where a block around gives them.
                        let around = blocks.map(|(types, _)| types).unwrap_or_default();
                        for root in repetition_roots(&around) {
                            push(root, CompletionKind::Root, None);
                        }
                    }
                }
            }
        }
        let incomplete = out.len() > MAX_COMPLETIONS;
        out.truncate(MAX_COMPLETIONS);
        (out, incomplete)
    }
}

/// A completion item of a body: an argument or a block type.
pub struct BodyItem {
    pub kind: CompletionKind,
    pub detail: Option<String>,
}

impl Snapshot {
    /// The arguments and block types a body of `file` reached through
    /// blocks of `types` may hold: Terraform's schemas for a Terraform
    /// file, the dialect's block schemas ([`db::module::DialectRules::block_schemas`])
    /// for another (their top level and their blocks' bodies). Empty where
    /// nothing says.
    pub fn expected_names(&self, file: File, types: &[&str]) -> Vec<(String, BodyItem)> {
        let mut out = Vec::new();
        let path = file.path(&self.db);
        if vfs::FileKind::of_named(path).language == vfs::Language::Terraform {
            let Some(names) = analysis::terraform::expected_names(types) else { return out };
            for (name, required) in names.arguments {
                let detail = required.then(|| "required".to_string());
                out.push((name.to_string(), BodyItem { kind: CompletionKind::Argument, detail }));
            }
            for (name, labels) in names.blocks {
                let detail = Some(block_detail(name, labels.iter().copied()));
                out.push((name.to_string(), BodyItem { kind: CompletionKind::Block, detail }));
            }
            return out;
        }
        let Some(module) = self.module_of(file) else { return out };
        let schemas = &module.dialect(&self.db).rules(&self.db).block_schemas;
        match types {
            [] => {
                for (name, schema) in schemas {
                    let detail = Some(block_detail(name, std::iter::repeat_n("name", schema.labels)));
                    out.push((name.to_string(), BodyItem { kind: CompletionKind::Block, detail }));
                }
            }
            [block] => {
                let Some(schema) = schemas.get(*block) else { return out };
                for (name, required) in &schema.attributes {
                    let detail = required.then(|| "required".to_string());
                    out.push((name.to_string(), BodyItem { kind: CompletionKind::Argument, detail }));
                }
                for name in &schema.blocks {
                    out.push((name.to_string(), BodyItem { kind: CompletionKind::Block, detail: None }));
                }
            }
            _ => {}
        }
        out
    }
}

/// `resource "type" "name"`.
fn block_detail<'a>(name: &str, labels: impl Iterator<Item = &'a str>) -> String {
    let mut out = name.to_string();
    for label in labels {
        out.push_str(&format!(" \"{label}\""));
    }
    out
}

/// The blocks whose bodies hold `offset`, outermost first, each with its
/// type and whether its body has `count` and `for_each` arguments; and
/// whether `offset` is inside an expression of the innermost body rather
/// than where an argument or a block starts.
fn blocks_around(root: &SyntaxNode, offset: TextSize) -> (Vec<(SmolStr, bool, bool)>, bool) {
    let Some(token) = root.token_at_offset(offset).left_biased() else { return (Vec::new(), false) };
    let mut blocks = Vec::new();
    let mut in_expression = false;
    for node in token.parent_ancestors() {
        match node.kind() {
            SyntaxKind::BLOCK => {
                let open = node.children_with_tokens().find(|it| it.kind() == SyntaxKind::L_CURLY);
                let close = node.children_with_tokens().find(|it| it.kind() == SyntaxKind::R_CURLY);
                let inside = open.is_some_and(|it| it.text_range().end() <= offset)
                    && close.is_none_or(|it| offset <= it.text_range().start());
                if !inside {
                    // On the block's header: not in its body.
                    if blocks.is_empty() {
                        in_expression = true;
                    }
                    continue;
                }
                let Some(kind) = first_ident(&node) else { continue };
                let body = node.children().find(|it| it.kind() == SyntaxKind::BODY);
                let has = |name: &str| {
                    body.iter().flat_map(|it| it.children()).any(|it| {
                        it.kind() == SyntaxKind::ATTRIBUTE
                            && first_ident(&it).is_some_and(|id| id.text() == name)
                    })
                };
                blocks.push((SmolStr::new(kind.text()), has("count"), has("for_each")));
            }
            SyntaxKind::OBJECT_EXPR
            | SyntaxKind::TUPLE_EXPR
            | SyntaxKind::ARG_LIST
            | SyntaxKind::PAREN_EXPR
            | SyntaxKind::FOR_TUPLE_EXPR
            | SyntaxKind::FOR_OBJECT_EXPR
            | SyntaxKind::TEMPLATE_INTERPOLATION
            | SyntaxKind::HEREDOC
            | SyntaxKind::QUOTED_TEMPLATE
                if blocks.is_empty() =>
            {
                in_expression = true;
            }
            _ => {}
        }
    }
    blocks.reverse();
    (blocks, in_expression)
}

/// `count`, `each` and `self` where the blocks around give them: `count`
/// in a block with a `count` argument, `each` in one with `for_each`,
/// `self` in a provisioner, a connection block or a postcondition.
fn repetition_roots(blocks: &[(SmolStr, bool, bool)]) -> Vec<&'static str> {
    let mut out = Vec::new();
    if blocks.iter().any(|it| it.1) {
        out.push("count");
    }
    if blocks.iter().any(|it| it.2) {
        out.push("each");
    }
    if blocks.iter().any(|it| matches!(it.0.as_str(), "provisioner" | "connection" | "postcondition")) {
        out.push("self");
    }
    out
}

/// The most completion items one answer carries: a module of thousands of
/// files has tens of thousands of locals, and the client asks again as
/// more of the name is typed.
pub const MAX_COMPLETIONS: usize = 1000;

/// One completion item.
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    /// A function's signature.
    pub detail: Option<String>,
}

/// What a completion item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletionKind {
    Variable,
    Local,
    Function,
    Root,
    /// An argument a block's schema has.
    Argument,
    /// A block type a body's schema has.
    Block,
}

/// A value for a reader: its JSON text when known (cut after a few
/// thousand characters), or that it is known after apply.
fn describe_value(value: &Value) -> String {
    const MAX: usize = 4000;
    if !value.is_known() {
        // What go-cty's refinements know of it.
        let range = value.range();
        let mut known = Vec::new();
        if range.definitely_not_null() {
            known.push("not null".to_string());
        }
        if !range.string_prefix().is_empty() {
            let mut prefix = String::new();
            value::json::write_string(&mut prefix, range.string_prefix());
            known.push(format!("starts with `{prefix}`"));
        }
        return match known.is_empty() {
            true => "(known after apply)".to_string(),
            false => format!("(known after apply; {})", known.join(", ")),
        };
    }
    if !value.is_wholly_known() {
        return "(partly known after apply)".to_string();
    }
    match value.to_json_string(&value.ty()) {
        Ok(mut json) => {
            if json.len() > MAX {
                json.truncate(floor_char_boundary(&json, MAX));
                json.push_str(" …");
            }
            format!("```json\n{json}\n```")
        }
        Err(_) => String::new(),
    }
}

/// `name(param type, …)`.
pub fn signature(name: &str, function: &eval::Function) -> String {
    signature_parts(name, function).0
}

/// `name(param type, …)`, and the range of each parameter in it.
fn signature_parts(name: &str, function: &eval::Function) -> (String, Vec<(usize, usize)>) {
    let mut params: Vec<String> =
        function.params.iter().map(|param| format!("{} {}", param.name, param.ty.friendly_name())).collect();
    if let Some(param) = &function.var_param {
        params.push(format!("{}... {}", param.name, param.ty.friendly_name()));
    }
    let mut label = format!("{name}(");
    let mut ranges = Vec::new();
    for (at, param) in params.iter().enumerate() {
        if at > 0 {
            label.push_str(", ");
        }
        ranges.push((label.len(), label.len() + param.len()));
        label.push_str(param);
    }
    label.push(')');
    (label, ranges)
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The 1-based line of an offset.
fn text_line(text: &str, offset: TextSize) -> usize {
    let offset = floor_char_boundary(text, offset.into());
    text[..offset].matches('\n').count() + 1
}

/// Whether a name is an HCL identifier.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|ch| ch.is_alphabetic() || ch == '_')
        && chars.all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '-')
}

/// The identifier (or a label's text) at `offset`, or just before it (a
/// cursor right after a name is on it).
fn ident_at(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    if offset > root.text_range().end() {
        return None;
    }
    let named = |token: &SyntaxToken| matches!(token.kind(), SyntaxKind::IDENT | SyntaxKind::TEMPLATE_TEXT);
    let at = root.token_at_offset(offset);
    at.clone().find(named).or_else(|| at.left_biased().filter(named))
}

fn first_ident(node: &SyntaxNode) -> Option<SyntaxToken> {
    node.children_with_tokens().filter_map(|it| it.into_token()).find(|it| it.kind() == SyntaxKind::IDENT)
}

/// A label's name token: its identifier or its quoted text.
fn label_name(label: &SyntaxNode) -> Option<SyntaxToken> {
    first_ident(label).or_else(|| {
        label
            .descendants_with_tokens()
            .filter_map(|it| it.into_token())
            .find(|it| it.kind() == SyntaxKind::TEMPLATE_TEXT)
    })
}

/// The traversal a token is part of, and which of its segments the token
/// is.
fn chain_at(token: &SyntaxToken) -> Option<(Vec<(SmolStr, TextRange)>, usize)> {
    if token.kind() != SyntaxKind::IDENT {
        return None;
    }
    let parent = token.parent()?;
    let variable = match parent.kind() {
        SyntaxKind::VARIABLE => parent,
        SyntaxKind::GET_ATTR_EXPR => {
            let mut node = parent;
            while let Some(child) = node.first_child() {
                if child.kind() == SyntaxKind::VARIABLE {
                    node = child;
                    break;
                }
                if child.kind() != SyntaxKind::GET_ATTR_EXPR {
                    return None;
                }
                node = child;
            }
            (node.kind() == SyntaxKind::VARIABLE).then_some(node)?
        }
        _ => return None,
    };
    let chain = chain_from(&variable);
    let at = chain.iter().position(|(_, range)| *range == token.text_range())?;
    Some((chain, at))
}

/// The names of the traversal rooted at a variable: `var`, `region` for
/// `var.region`; it ends at the first accessor that is not `.name`.
fn chain_from(variable: &SyntaxNode) -> Vec<(SmolStr, TextRange)> {
    let mut chain = Vec::new();
    let Some(root) = first_ident(variable) else { return chain };
    chain.push((SmolStr::new(root.text()), root.text_range()));
    let mut node = variable.clone();
    while let Some(parent) = node.parent() {
        if parent.kind() != SyntaxKind::GET_ATTR_EXPR || parent.first_child().as_ref() != Some(&node) {
            break;
        }
        let Some(name) = first_ident(&parent) else { break };
        chain.push((SmolStr::new(name.text()), name.text_range()));
        node = parent;
    }
    chain
}

/// Whether `name` is bound by an enclosing `for` expression, where it is
/// not the module's root.
fn in_for_scope(node: &SyntaxNode, name: &str) -> bool {
    node.ancestors()
        .filter(|it| matches!(it.kind(), SyntaxKind::FOR_TUPLE_EXPR | SyntaxKind::FOR_OBJECT_EXPR))
        .any(|it| {
            it.children().any(|child| {
                child.kind() == SyntaxKind::FOR_INTRO
                    && child
                        .children_with_tokens()
                        .filter_map(|it| it.into_token())
                        .filter(|it| it.kind() == SyntaxKind::IDENT)
                        .skip(1)
                        .take_while(|it| it.text() != "in")
                        .any(|it| it.text() == name)
            })
        })
}

/// The declaration whose name a token is: a local's name, a variable's,
/// output's or module call's label, or a block's labels.
fn declaration_at(token: &SyntaxToken) -> Option<(Address, TextRange)> {
    let parent = token.parent()?;
    if parent.kind() == SyntaxKind::ATTRIBUTE && first_ident(&parent).as_ref() == Some(token) {
        let block = top_level_block(&parent)?;
        let (kind, _) = block_header(&block)?;
        if kind == "locals" {
            return Some((Address::new(["local", token.text()]), token.text_range()));
        }
        return None;
    }
    let label = token.parent_ancestors().find(|it| it.kind() == SyntaxKind::BLOCK_LABEL)?;
    let block = label.parent().filter(|it| it.kind() == SyntaxKind::BLOCK)?;
    top_level_block(&block).filter(|it| *it == block)?;
    let (kind, labels) = block_header(&block)?;
    let name_range = label_name(&label)?.text_range();
    let address = match (kind.as_str(), labels.as_slice()) {
        ("variable", [name]) => Address::new(["var", name.as_str()]),
        ("data", [kind, name]) => Address::new(["data", kind.as_str(), name.as_str()]),
        (_, labels) if !labels.is_empty() => {
            Address::new(std::iter::once(kind.as_str()).chain(labels.iter().map(SmolStr::as_str)))
        }
        _ => return None,
    };
    Some((address, name_range))
}

/// The top-level block a node is in.
fn top_level_block(node: &SyntaxNode) -> Option<SyntaxNode> {
    node.ancestors().filter(|it| it.kind() == SyntaxKind::BLOCK).last()
}

/// A block's type and labels.
fn block_header(block: &SyntaxNode) -> Option<(SmolStr, Vec<SmolStr>)> {
    let kind = SmolStr::new(first_ident(block)?.text());
    let labels = block
        .children()
        .filter(|it| it.kind() == SyntaxKind::BLOCK_LABEL)
        .map(|label| label_name(&label).map_or_else(SmolStr::default, |it| SmolStr::new(it.text())))
        .collect();
    Some((kind, labels))
}

/// What kind of name a rename changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenameKind {
    Variable,
    Local,
    Output,
    ModuleCall,
    /// A resource or data source (`TYPE.NAME`, `data.TYPE.NAME`).
    Resource,
}

/// A file's outline: each top-level block (and a `locals` block's names),
/// with its range and the range of its name.
pub struct Symbol {
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    pub range: TextRange,
    pub selection: TextRange,
    pub children: Vec<Symbol>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolKind {
    Block,
    Variable,
    Output,
    Module,
    Attribute,
}

impl Snapshot {
    pub fn symbols(&self, file: File) -> Vec<Symbol> {
        let Some(root) = self.root(file) else { return Vec::new() };
        let Some(body) = root.children().find(|it| it.kind() == SyntaxKind::BODY) else { return Vec::new() };
        body_symbols(&body, 0)
    }
}

fn body_symbols(body: &SyntaxNode, depth: usize) -> Vec<Symbol> {
    let mut out = Vec::new();
    for item in body.children() {
        match item.kind() {
            SyntaxKind::ATTRIBUTE => {
                let Some(name) = first_ident(&item) else { continue };
                out.push(Symbol {
                    name: name.text().to_string(),
                    detail: None,
                    kind: SymbolKind::Attribute,
                    range: item.text_range(),
                    selection: name.text_range(),
                    children: Vec::new(),
                });
            }
            SyntaxKind::BLOCK => {
                let Some((kind, labels)) = block_header(&item) else { continue };
                let Some(type_token) = first_ident(&item) else { continue };
                let symbol_kind = match kind.as_str() {
                    "variable" => SymbolKind::Variable,
                    "output" => SymbolKind::Output,
                    "module" => SymbolKind::Module,
                    _ => SymbolKind::Block,
                };
                let mut name = kind.to_string();
                for label in &labels {
                    name.push_str(&format!(" \"{label}\""));
                }
                // Only the first levels: an outline of every nested block
                // of a large file says little.
                let children = match item.children().find(|it| it.kind() == SyntaxKind::BODY) {
                    Some(inner) if depth < 2 => body_symbols(&inner, depth + 1),
                    _ => Vec::new(),
                };
                out.push(Symbol {
                    name,
                    detail: None,
                    kind: symbol_kind,
                    range: item.text_range(),
                    selection: type_token.text_range(),
                    children,
                });
            }
            _ => {}
        }
    }
    out
}

/// A node's range without the space and newlines at its ends (a block
/// holds the newline after it), or its whole range if it is all space.
fn trimmed_range(node: &SyntaxNode) -> TextRange {
    let is_space = |token: &SyntaxToken| matches!(token.kind(), SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE);
    let whole = node.text_range();
    let first = std::iter::successors(node.first_token(), SyntaxToken::next_token)
        .take_while(|it| it.text_range().end() <= whole.end())
        .find(|it| !is_space(it));
    let last = last_token_where(node, |it| !is_space(it));
    match (first, last) {
        (Some(first), Some(last)) if first.text_range().start() <= last.text_range().end() => {
            TextRange::new(first.text_range().start(), last.text_range().end())
        }
        _ => whole,
    }
}

/// The last token of `node` that `keep` takes, walking back from its end.
fn last_token_where(node: &SyntaxNode, keep: impl Fn(&SyntaxToken) -> bool) -> Option<SyntaxToken> {
    let whole = node.text_range();
    std::iter::successors(node.last_token(), SyntaxToken::prev_token)
        .take_while(|it| it.text_range().start() >= whole.start())
        .find(keep)
}

/// A range of lines an editor may fold: a block's, an object's, a
/// tuple's, a call's arguments, a heredoc's, or a comment's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fold {
    pub range: TextRange,
    pub is_comment: bool,
    /// Its closing bracket or heredoc marker, if it has one.
    pub closing: Option<TextRange>,
}

/// The most folds one file gives: a generated file of a million blocks
/// costs an answer of bounded size.
const MAX_FOLDS: usize = 10_000;

/// The most symbols one `workspace/symbol` answer names.
const MAX_WORKSPACE_SYMBOLS: usize = 500;

/// A declaration of the workspace: its address as written in references
/// (`var.region`, `aws_instance.web`), where it is, and what it is.
pub struct WorkspaceSymbol {
    pub name: String,
    pub kind: SymbolKind,
    pub location: FileRange,
}

impl Snapshot {
    /// The foldable ranges of a file, in source order; the server turns
    /// them into lines and drops those within one line.
    pub fn folds(&self, file: File) -> Vec<Fold> {
        let Some(root) = self.root(file) else { return Vec::new() };
        let mut out = Vec::new();
        // Consecutive line comments fold as one.
        let mut comments: Option<TextRange> = None;
        for element in root.descendants_with_tokens() {
            if out.len() >= MAX_FOLDS {
                break;
            }
            match element {
                syntax::SyntaxElement::Node(node) => {
                    let foldable = matches!(
                        node.kind(),
                        SyntaxKind::BLOCK
                            | SyntaxKind::OBJECT_EXPR
                            | SyntaxKind::TUPLE_EXPR
                            | SyntaxKind::FOR_TUPLE_EXPR
                            | SyntaxKind::FOR_OBJECT_EXPR
                            | SyntaxKind::ARG_LIST
                            | SyntaxKind::HEREDOC
                    );
                    if foldable {
                        // A block folds from its opening brace, so that its
                        // header stays in sight.
                        let start = node
                            .children_with_tokens()
                            .find(|it| it.kind() == SyntaxKind::L_CURLY)
                            .map_or(node.text_range().start(), |it| it.text_range().start());
                        // Up to its last token that is not space (a block
                        // holds the newline after it).
                        let last = last_token_where(&node, |it| {
                            !matches!(
                                it.kind(),
                                SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE | SyntaxKind::COMMENT
                            )
                        });
                        let Some(last) = last else { continue };
                        let closing = matches!(
                            last.kind(),
                            SyntaxKind::R_CURLY
                                | SyntaxKind::R_BRACK
                                | SyntaxKind::R_PAREN
                                | SyntaxKind::HEREDOC_END
                        )
                        .then(|| last.text_range());
                        let range = TextRange::new(start, last.text_range().end().max(start));
                        out.push(Fold { range, is_comment: false, closing });
                    }
                }
                syntax::SyntaxElement::Token(token) => match token.kind() {
                    SyntaxKind::COMMENT if token.text().starts_with("/*") => {
                        out.push(Fold { range: token.text_range(), is_comment: true, closing: None });
                    }
                    SyntaxKind::COMMENT => {
                        comments = Some(match comments {
                            Some(run) => run.cover(token.text_range()),
                            None => token.text_range(),
                        });
                    }
                    SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE
                        if token.text().matches('\n').count() <= 1 => {}
                    _ => {
                        if let Some(run) = comments.take() {
                            out.push(Fold { range: run, is_comment: true, closing: None });
                        }
                    }
                },
            }
        }
        if let Some(run) = comments {
            out.push(Fold { range: run, is_comment: true, closing: None });
        }
        out.sort_by_key(|it| (it.range.start(), std::cmp::Reverse(it.range.end())));
        out
    }

    /// The ranges of the syntax nodes around `offset`, innermost first, each
    /// larger than the one before: what "expand selection" steps through.
    pub fn selection(&self, file: File, offset: TextSize) -> Vec<TextRange> {
        let Some(root) = self.root(file) else { return Vec::new() };
        let mut out: Vec<TextRange> = Vec::new();
        let mut push = |range: TextRange| {
            if out.last().is_none_or(|last| *last != range) {
                out.push(range);
            }
        };
        // Between two tokens, the one that is not space.
        let tokens: Vec<SyntaxToken> = root.token_at_offset(offset).collect();
        let Some(token) = tokens
            .iter()
            .rev()
            .find(|it| !matches!(it.kind(), SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE))
            .or(tokens.first())
            .cloned()
        else {
            return vec![root.text_range()];
        };
        push(token.text_range());
        for node in token.parent_ancestors() {
            push(trimmed_range(&node));
        }
        out
    }

    /// The declarations of every module of the workspace whose address
    /// contains `query` (ignoring case), from the files' declarations as
    /// last read (no file is parsed to find them; those found are, for
    /// their ranges), at most [`MAX_WORKSPACE_SYMBOLS`].
    pub fn workspace_symbols(&self, query: &str) -> Vec<WorkspaceSymbol> {
        let query = query.to_lowercase();
        let mut out = Vec::new();
        for module in self.modules.values() {
            for &file in module.files(&self.db) {
                self.check_cancelled();
                let Some(declarations) = file.declarations(&self.db).clone() else { continue };
                for declaration in &declarations.declarations {
                    let kind = match (&declaration.kind, declaration.address.smol_segments().first()) {
                        (module::DeclarationKind::Variable { .. }, _) => SymbolKind::Variable,
                        (module::DeclarationKind::Local, _) => SymbolKind::Attribute,
                        (module::DeclarationKind::Block, Some(root)) if root == "output" => {
                            SymbolKind::Output
                        }
                        (module::DeclarationKind::Block, Some(root)) if root == "module" => {
                            SymbolKind::Module
                        }
                        (module::DeclarationKind::Block, _) => SymbolKind::Block,
                        _ => continue,
                    };
                    // As references write it: `resource "T" "N"` is `T.N`.
                    let name = self.module_address(*module, &declaration.address).to_string();
                    if !name.to_lowercase().contains(&query) {
                        continue;
                    }
                    let range = module::location_range(&self.db, file, &declaration.location, RangeOf::Name);
                    out.push(WorkspaceSymbol { name, kind, location: FileRange { file, range } });
                    if out.len() >= MAX_WORKSPACE_SYMBOLS {
                        return out;
                    }
                }
            }
        }
        out
    }
}
