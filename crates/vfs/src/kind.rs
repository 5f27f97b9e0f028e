//! The one table of file kinds: which names are HCL files, in which syntax,
//! for which tool, and which of them make up a module.
//!
//! Every layer that asks what a file is by its name asks here: the loader
//! and the watcher (which files to read and watch), the command line's
//! directory walks (which files to check or format), the database (which
//! syntax to parse a file in, which files Terraform reads) and the
//! analyses (which findings a tool's file can trust).

use camino::{Utf8Path, Utf8PathBuf};

/// Which of HCL's two syntaxes a file is written in. The name decides, as it
/// does for the reference's tools: a name ending in `.json`
/// (`main.tf.json`, `config.hcl.json`) is the JSON syntax, anything else the
/// native one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourceSyntax {
    Native,
    Json,
}

impl SourceSyntax {
    pub fn of_path(path: &Utf8Path) -> SourceSyntax {
        if path.as_str().ends_with(".json") { SourceSyntax::Json } else { SourceSyntax::Native }
    }
}

/// The tool whose language a file is written in, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// `*.tf`, and OpenTofu's `*.tofu`, which it reads as `*.tf`
    /// (opentofu/opentofu's `internal/configs/parser_config_dir.go`).
    Terraform,
    /// `*.tfvars`: values for a Terraform module's variables, not part of
    /// the module.
    TerraformVariables,
    /// Terraform's other formats, with roots of their own and variables
    /// declared elsewhere: `*.tftest.hcl`, `*.tfmock.hcl`, `*.tfquery.hcl`,
    /// the Stacks files (`*.tfcomponent.hcl`, `*.tfstack.hcl`,
    /// `*.tfdeploy.hcl`), OpenTofu's `*.tofutest.hcl`, and the JSON twins
    /// Terraform reads (`*.tftest.json`, `*.tfmock.json`, `*.tfquery.json`,
    /// `*.tfcomponent.json`). Which one a file is: [`TerraformFormat`].
    TerraformTool,
    /// `*.pkr.hcl`, `*.pkr.json`.
    Packer,
    /// `*.pkrvars.hcl`, `*.pkrvars.json`: values for a Packer template's
    /// variables, not part of the template.
    PackerVariables,
    /// `*.nomad`, `*.nomad.hcl`.
    Nomad,
    /// `terragrunt.hcl`, `*.terragrunt.hcl`, `terragrunt.stack.hcl`, and
    /// `root.hcl`, the name Terragrunt's documentation gives the root
    /// configuration every unit includes
    /// (`find_in_parent_folders("root.hcl")`).
    Terragrunt,
    /// Any other `*.hcl`: an application's own format.
    Hcl,
}

/// What a file is, by its name: its tool's language and its syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileKind {
    pub language: Language,
    pub syntax: SourceSyntax,
}

/// The native endings of each language, longest first where one ends
/// another (`.pkr.hcl` before `.hcl`). JSON twins add `.json`.
const TERRAFORM_ENDINGS: &[&str] = &[".tf", ".tofu"];

impl FileKind {
    /// The kind of an HCL file by its name, or `None` for a name that is not
    /// one (`README.md`, `package.json`, `main.tf.tmp`).
    pub fn of(path: &Utf8Path) -> Option<FileKind> {
        let name = name_of(path);
        let (stem, syntax) = match name.strip_suffix(".json") {
            Some(stem) => (stem, SourceSyntax::Json),
            None => (name, SourceSyntax::Native),
        };
        let language = language_of(stem)?;
        Some(FileKind { language, syntax })
    }

    /// The kind of a file named on the command line, which is read as HCL
    /// whatever its name: its kind by name, or an application's format in
    /// the syntax its name says.
    pub fn of_named(path: &Utf8Path) -> FileKind {
        FileKind::of(path)
            .unwrap_or(FileKind { language: Language::Hcl, syntax: SourceSyntax::of_path(path) })
    }

    /// Whether files of this kind in one directory are read together as a
    /// module (everything but Terraform's and Packer's variables files).
    pub fn is_module_member(self) -> bool {
        !matches!(self.language, Language::TerraformVariables | Language::PackerVariables)
    }

    /// Whether a unit of files of this kind reads its sibling units by path
    /// (a Terragrunt unit's `dependency "vpc" { config_path = "../vpc" }`),
    /// so that checking siblings together saves reading them again. A
    /// module reads only its children.
    pub fn reads_sibling_units(self) -> bool {
        match self.language {
            Language::Terragrunt => true,
            Language::Terraform
            | Language::TerraformVariables
            | Language::TerraformTool
            | Language::Packer
            | Language::PackerVariables
            | Language::Nomad
            | Language::Hcl => false,
        }
    }

    /// Whether the file is one of Terraform's configuration files (`*.tf`,
    /// `*.tf.json`, `*.tofu`, `*.tofu.json`).
    pub fn is_terraform(self) -> bool {
        self.language == Language::Terraform
    }
}

/// The language of a name without its `.json` ending.
fn language_of(stem: &str) -> Option<Language> {
    // A name that is only an ending (`.tf`) is no file of that kind.
    let ends = |ending: &str| stem.len() > ending.len() && stem.ends_with(ending);
    if TERRAFORM_ENDINGS.iter().any(|ending| ends(ending)) {
        return Some(Language::Terraform);
    }
    if ends(".tfvars") {
        return Some(Language::TerraformVariables);
    }
    if ends(".pkr.hcl") || ends(".pkr") {
        return Some(Language::Packer);
    }
    if ends(".pkrvars.hcl") || ends(".pkrvars") {
        return Some(Language::PackerVariables);
    }
    if ends(".nomad") || ends(".nomad.hcl") {
        return Some(Language::Nomad);
    }
    // A template Packer's `templatefile` fills in (cloud-init, a
    // preseed): text of any kind, which Packer never reads as HCL
    // (`hcl2template/parser.go` reads `.pkr.hcl` and `.pkrvars.hcl` only).
    if ends(".pkrtpl.hcl") {
        return None;
    }
    if stem == "terragrunt.hcl"
        || stem == "terragrunt.stack.hcl"
        || stem == "root.hcl"
        || ends(".terragrunt.hcl")
    {
        return Some(Language::Terragrunt);
    }
    if let Some(base) = stem.strip_suffix(".hcl").filter(|base| !base.is_empty()) {
        let tool = terraform_tool_extension(base).is_some();
        return Some(if tool { Language::TerraformTool } else { Language::Hcl });
    }
    // The JSON twins of Terraform's other formats: `main.tftest.json`'s
    // stem is `main.tftest`, with no native ending of its own.
    if terraform_tool_extension(stem).is_some_and(|ext| TERRAFORM_JSON_TOOL_EXTENSIONS.contains(&ext)) {
        return Some(Language::TerraformTool);
    }
    // `*.pkr.json`'s stem is `*.pkr`, handled above; other JSON twins need
    // a native ending.
    None
}

/// The formats among Terraform's other ones whose JSON twin Terraform reads
/// (`main.tftest.json`: its `configs` and `stackconfig` packages); the
/// older `.tfstack` name and the deployment files have none.
const TERRAFORM_JSON_TOOL_EXTENSIONS: &[&str] = &["tftest", "tfmock", "tfquery", "tfcomponent"];

/// Which of Terraform's other formats a file is (the files of
/// [`Language::TerraformTool`]), by its name: each has blocks of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TerraformFormat {
    /// `*.tftest.hcl`, `*.tftest.json`: `terraform test`'s files.
    Test,
    /// OpenTofu's `*.tofutest.hcl`, which `tofu test` reads as a test file.
    OpenTofuTest,
    /// `*.tfmock.hcl`, `*.tfmock.json`: a mock provider's data.
    Mock,
    /// `*.tfquery.hcl`, `*.tfquery.json`: `terraform query`'s files.
    Query,
    /// A Stack's component configuration: `*.tfcomponent.hcl`,
    /// `*.tfcomponent.json`, and `*.tfstack.hcl`, the name these files had
    /// before Terraform 1.13. The files of one directory make one Stack.
    StackComponents,
    /// A Stack's deployment configuration: `*.tfdeploy.hcl`. The files of
    /// one directory make one deployment configuration.
    StackDeployments,
}

impl TerraformFormat {
    /// The format of a file by its name, or `None` for a file that is none
    /// of Terraform's other formats (an unknown `*.tfx.hcl` among them).
    pub fn of(path: &Utf8Path) -> Option<TerraformFormat> {
        let kind = FileKind::of(path)?;
        if kind.language != Language::TerraformTool {
            return None;
        }
        let name = name_of(path);
        let base = match kind.syntax {
            SourceSyntax::Native => name.strip_suffix(".hcl")?,
            SourceSyntax::Json => name.strip_suffix(".json")?,
        };
        terraform_tool_extension(base).and_then(TerraformFormat::of_extension)
    }

    fn of_extension(extension: &str) -> Option<TerraformFormat> {
        Some(match extension {
            "tftest" => TerraformFormat::Test,
            "tofutest" => TerraformFormat::OpenTofuTest,
            "tfmock" => TerraformFormat::Mock,
            "tfquery" => TerraformFormat::Query,
            "tfcomponent" | "tfstack" => TerraformFormat::StackComponents,
            "tfdeploy" => TerraformFormat::StackDeployments,
            _ => return None,
        })
    }

    /// Whether the file belongs to a Stack (its components or deployments).
    pub fn is_stack(self) -> bool {
        matches!(self, TerraformFormat::StackComponents | TerraformFormat::StackDeployments)
    }
}

/// The extension before `.hcl` of one of Terraform's other formats
/// (`tftest` in `main.tftest.hcl`, `tfcomponent`, `tofutest`), given the
/// name without `.hcl`. A hidden file's name is not an extension:
/// `.tflint.hcl` is tflint's configuration, an application's format.
fn terraform_tool_extension(base: &str) -> Option<&str> {
    base.rsplit_once('.')
        .filter(|(name, ext)| !name.is_empty() && (ext.starts_with("tf") || *ext == "tofutest"))
        .map(|(_, ext)| ext)
}

/// The formats among Terraform's other ones that `terraform fmt` formats
/// (its `fmtSupportedExts`), and OpenTofu's test files, which `tofu fmt`
/// formats the same way. Stacks files are not among them.
const TERRAFORM_FMT_TOOL_EXTENSIONS: &[&str] = &["tftest", "tfmock", "tfquery", "tofutest"];

/// Whether `terraform fmt` formats a file of this name, in the native
/// syntax: Terraform's configuration files (and OpenTofu's `*.tofu`, which
/// `tofu fmt` formats as Terraform does), its variables files, and its
/// test, mock and query files. These get Terraform's style of formatting
/// (its rewrites before `hclwrite`'s layout); every other HCL file gets
/// `hclwrite.Format`'s, as Packer, Nomad and Terragrunt write them.
pub fn is_terraform_fmt_file(path: &Utf8Path) -> bool {
    let Some(kind) = FileKind::of(path) else { return false };
    if kind.syntax != SourceSyntax::Native {
        return false;
    }
    match kind.language {
        Language::Terraform | Language::TerraformVariables => true,
        Language::TerraformTool => {
            let name = name_of(path);
            name.strip_suffix(".hcl")
                .and_then(terraform_tool_extension)
                .is_some_and(|ext| TERRAFORM_FMT_TOOL_EXTENSIONS.contains(&ext))
        }
        Language::Packer
        | Language::PackerVariables
        | Language::Nomad
        | Language::Terragrunt
        | Language::Hcl => false,
    }
}

/// Whether a file name is one that Terraform ignores, as editors' and
/// systems' files (`configs.IsIgnoredFile`): a name starting with `.`,
/// ending with `~`, or starting and ending with `#`. Backups, swap and lock
/// files appear and vanish while a file is saved (`.main.tf.swp`,
/// `main.tf~`, Emacs's `.#main.tf` and `#main.tf#`) and hidden ones belong
/// to other tools (`.tflint.hcl`), so none is ever part of a module; a walk
/// that checks every HCL file still checks the hidden ones on their own.
pub fn is_ignored_name(name: &str) -> bool {
    name.starts_with('.')
        || name.ends_with('~')
        || (name.len() > 1 && name.starts_with('#') && name.ends_with('#'))
}

/// Whether a file of this name is part of a module: an HCL file of a kind
/// that is read together with its directory (see
/// [`FileKind::is_module_member`]) and not a name Terraform ignores (see
/// [`is_ignored_name`]).
pub fn is_module_file(path: &Utf8Path) -> bool {
    let name = name_of(path);
    !is_ignored_name(name) && FileKind::of(path).is_some_and(FileKind::is_module_member)
}

/// Whether `path` is one of the variables files Terraform reads by itself
/// from the directory it runs in: `terraform.tfvars`,
/// `terraform.tfvars.json`, and every name ending in `.auto.tfvars` or
/// `.auto.tfvars.json` (Terraform ignores no name here, a hidden one
/// included, as it does among module files).
pub fn is_terraform_automatic_variables_file(path: &Utf8Path) -> bool {
    let name = name_of(path);
    let stem = name.strip_suffix(".json").unwrap_or(name);
    stem == "terraform.tfvars" || stem.ends_with(".auto.tfvars")
}

/// Whether `path` is one of the variables files Packer reads by itself
/// from a template's directory: every name ending in `.auto.pkrvars.hcl`
/// or `.auto.pkrvars.json` (`hcl2template/parser.go`).
pub fn is_packer_automatic_variables_file(path: &Utf8Path) -> bool {
    let name = name_of(path);
    name.ends_with(".auto.pkrvars.hcl") || name.ends_with(".auto.pkrvars.json")
}

/// Whether `path` is a variables file a tool reads by itself from the
/// directory it runs in: Terraform's or Packer's.
pub fn is_automatic_variables_file(path: &Utf8Path) -> bool {
    is_terraform_automatic_variables_file(path) || is_packer_automatic_variables_file(path)
}

/// The directory of the module a module file belongs to: its parent, `.`
/// for a bare name (a file of the current directory), so that `main.tf`
/// and `./main.tf` belong to the same module as the directory `.`.
pub fn module_dir(path: &Utf8Path) -> &Utf8Path {
    match parent(path) {
        Some(parent) if !parent.as_str().is_empty() => parent,
        _ => Utf8Path::new("."),
    }
}

/// Whether `path` is a Terraform override file (`override.tf`,
/// `*_override.tf`, their JSON twins and OpenTofu's `override.tofu`,
/// `*_override.tofu` and twins), which Terraform merges into the
/// declarations of the other files rather than adding to them.
pub fn is_terraform_override_file(path: &Utf8Path) -> bool {
    terraform_stem(path).is_some_and(|(stem, _)| stem == "override" || stem.ends_with("_override"))
}

/// The name of a Terraform file without its ending, with that ending:
/// `main.tofu.json` is `("main", ".tofu.json")`.
pub fn terraform_stem(path: &Utf8Path) -> Option<(&str, &'static str)> {
    const ENDINGS: &[&str] = &[".tf", ".tf.json", ".tofu", ".tofu.json"];
    let name = file_name(path)?;
    ENDINGS.iter().find_map(|&ending| Some((name.strip_suffix(ending).filter(|it| !it.is_empty())?, ending)))
}

/// The order of two paths as `Path::cmp` gives it (component by
/// component), cheaply for the plain paths a directory walk produces: there
/// it is the order of their bytes with the separator below every other
/// byte (a path holds no NUL). A path with a `.` or `..` component, or with
/// a repeated or trailing separator, is compared by `Path::cmp`. Sorting a
/// module's files by path is on every load and every change of its files,
/// and `Path::cmp` took most of that. Paths that both start with `./` (a
/// walk of `.`) are compared by what follows, since a `.` first is one
/// component both have.
pub fn path_order(a: &Utf8Path, b: &Utf8Path) -> std::cmp::Ordering {
    let (x, y) = (a.as_str().as_bytes(), b.as_str().as_bytes());
    let (x, y) = match (after_current_dir(x), after_current_dir(y)) {
        (Some(x), Some(y)) => (x, y),
        _ => (x, y),
    };
    if !is_plain(x) || !is_plain(y) {
        return a.cmp(b);
    }
    let separator_first = |byte: u8| if byte == b'/' { 0 } else { byte };
    match x.iter().zip(y).position(|(p, q)| p != q) {
        Some(at) => separator_first(x[at]).cmp(&separator_first(y[at])),
        None => x.len().cmp(&y.len()),
    }
}

/// Sorts `paths` by [`path_order`]. When every path is plain (a directory
/// walk's are), each is checked once rather than at every comparison, which
/// was most of sorting a large walk's paths.
pub fn sort_paths(paths: &mut [Utf8PathBuf]) {
    sort_by_path(paths, |path| path.as_path());
}

/// Sorts `items` by the [`path_order`] of each one's path, stably. When
/// every path is plain (a directory walk's, a module's files), each is
/// checked and read once rather than at every comparison: sorting a
/// module's ten thousand files by `path_order` was a tenth of `eval DIR`'s
/// work on one thread before any other could start.
pub fn sort_by_path<T>(items: &mut [T], path: impl Fn(&T) -> &Utf8Path) {
    fn bytes(path: &Utf8Path) -> &[u8] {
        let bytes = path.as_str().as_bytes();
        after_current_dir(bytes).unwrap_or(bytes)
    }
    if items.len() < 2 {
        return;
    }
    let prefixed = |item: &T| after_current_dir(path(item).as_str().as_bytes()).is_some();
    let all_prefixed = items.iter().all(prefixed);
    let uniform = all_prefixed || !items.iter().any(prefixed);
    if !uniform || !items.iter().all(|item| is_plain(bytes(path(item)))) {
        items.sort_by(|a, b| path_order(path(a), path(b)));
        return;
    }
    // Each path's bytes with its separators as 0 (a plain path has no 0
    // byte), all in one buffer, compared as bytes (memcmp): the order of
    // `path_order`, a separator before any other byte, without going byte
    // by byte through the long common prefixes of a module's paths at
    // every comparison. Distinct plain paths have distinct keys; equal
    // ones keep their order by position.
    let mut keys: Vec<u8> = Vec::with_capacity(items.iter().map(|item| bytes(path(item)).len()).sum());
    let mut spans: Vec<(usize, usize, usize)> = Vec::with_capacity(items.len());
    for (at, item) in items.iter().enumerate() {
        let start = keys.len();
        keys.extend(bytes(path(item)).iter().map(|&byte| if byte == b'/' { 0 } else { byte }));
        spans.push((start, keys.len(), at));
    }
    if spans.windows(2).all(|pair| keys[pair[0].0..pair[0].1] <= keys[pair[1].0..pair[1].1]) {
        return;
    }
    spans.sort_unstable_by(|a, b| keys[a.0..a.1].cmp(&keys[b.0..b.1]).then(a.2.cmp(&b.2)));
    apply_order(items, spans.into_iter().map(|(_, _, at)| at).collect());
}

/// Puts `items` in `order` (a permutation of their positions: the item at
/// `order[i]` goes to `i`), by swapping along each cycle.
fn apply_order<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..order.len() {
        // Follow the cycle through `start`, moving each item into place;
        // a position done is marked as its own.
        let mut current = start;
        while order[current] != start {
            let next = order[current];
            items.swap(current, next);
            order[current] = current;
            current = next;
        }
        order[current] = current;
    }
}

/// What follows a leading `./` (itself not another separator).
fn after_current_dir(path: &[u8]) -> Option<&[u8]> {
    path.strip_prefix(b"./").filter(|rest| !rest.starts_with(b"/"))
}

/// `Path::parent`, found from the text where the path is plain (its last
/// separator ends its parent) rather than by parsing its components: a
/// check asks it of every file and directory.
pub fn parent(path: &Utf8Path) -> Option<&Utf8Path> {
    let text = path.as_str();
    if !is_plain(text.as_bytes()) {
        return path.parent();
    }
    Some(Utf8Path::new(match text.as_bytes().iter().rposition(|&byte| byte == b'/') {
        Some(0) => "/",
        Some(at) => &text[..at],
        None => "",
    }))
}

/// `path`'s file name (`Path::file_name`), else the whole path.
fn name_of(path: &Utf8Path) -> &str {
    file_name(path).unwrap_or(path.as_str())
}

/// `Path::file_name`, without parsing the path's components where the
/// text after its last separator is the name: the table of file kinds is
/// asked about each file many times over a check.
fn file_name(path: &Utf8Path) -> Option<&str> {
    let text = path.as_str();
    // Scanned back byte by byte: the name is short, and a vector search costs more to start.
    let name = text.as_bytes().iter().rposition(|&byte| byte == b'/').map_or(text, |at| &text[at + 1..]);
    if matches!(name, "" | "." | "..") { path.file_name() } else { Some(name) }
}

/// Whether `path` has only normal components (a leading `/` allowed) and
/// single separators, so that its bytes order it as its components do.
fn is_plain(path: &[u8]) -> bool {
    let path = path.strip_prefix(b"/").unwrap_or(path);
    // Most paths have no separator before a `/` or `.` and do not start
    // with a dot: plain at a glance (a branch-free scan), since every path
    // comparison asks this of both paths.
    if !path.is_empty()
        && path[0] != b'.'
        && path[0] != b'/'
        && !crate::path_key::may_have_special_components(path)
    {
        return true;
    }
    !path.is_empty()
        && path.split(|&byte| byte == b'/').all(|component| !matches!(component, b"" | b"." | b".."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_paths_file_names() {
        for path in
            ["a/b.tf", "b.tf", "a//b.tf", "a/./b.tf", "a/b/", "a/.", "a/..", "/", ".", "..", "", "/a", "a/.b"]
        {
            let path = Utf8Path::new(path);
            assert_eq!(file_name(path), path.file_name(), "{path:?}");
        }
    }

    #[test]
    fn parents_are_paths_parents() {
        for path in [
            "a/b.tf",
            "b.tf",
            "a//b.tf",
            "a/./b.tf",
            "a/b/",
            "a/.",
            "a/..",
            "/",
            ".",
            "..",
            "",
            "/a",
            "/a/b",
            "a/.b",
            "./a/b",
            "../a",
            "/a/../b",
            "a/b/c/d.hcl",
        ] {
            let path = Utf8Path::new(path);
            assert_eq!(parent(path), path.parent(), "{path:?}");
        }
    }

    fn language(name: &str) -> Option<Language> {
        FileKind::of(Utf8Path::new(name)).map(|kind| kind.language)
    }

    #[test]
    fn languages_by_name() {
        use Language::*;
        for (name, expected) in [
            ("main.tf", Some(Terraform)),
            ("main.tf.json", Some(Terraform)),
            ("main.tofu", Some(Terraform)),
            ("main.tofu.json", Some(Terraform)),
            ("terraform.tfvars", Some(TerraformVariables)),
            ("vars.pkrvars.hcl", Some(PackerVariables)),
            ("x.auto.pkrvars.json", Some(PackerVariables)),
            ("x.auto.tfvars.json", Some(TerraformVariables)),
            ("a.tftest.hcl", Some(TerraformTool)),
            ("a.tfmock.hcl", Some(TerraformTool)),
            ("a.tfcomponent.hcl", Some(TerraformTool)),
            ("a.tofutest.hcl", Some(TerraformTool)),
            ("a.tfdeploy.hcl", Some(TerraformTool)),
            ("a.tftest.json", Some(TerraformTool)),
            ("a.tfcomponent.json", Some(TerraformTool)),
            ("a.tfstack.json", None),
            ("a.tfdeploy.json", None),
            ("a.tfx.json", None),
            ("build.pkr.hcl", Some(Packer)),
            ("build.pkr.json", Some(Packer)),
            ("user-data.pkrtpl.hcl", None),
            ("job.nomad", Some(Nomad)),
            ("job.nomad.hcl", Some(Nomad)),
            ("job.nomad.json", Some(Nomad)),
            ("terragrunt.hcl", Some(Terragrunt)),
            ("terragrunt.hcl.json", Some(Terragrunt)),
            ("root.terragrunt.hcl", Some(Terragrunt)),
            ("terragrunt.stack.hcl", Some(Terragrunt)),
            ("config.hcl", Some(Hcl)),
            ("config.hcl.json", Some(Hcl)),
            (".tflint.hcl", Some(Hcl)),
            ("README.md", None),
            ("package.json", None),
            ("main.tf.tmp", None),
            (".tf", None),
            (".hcl", None),
            ("4913", None),
        ] {
            assert_eq!(language(name), expected, "{name}");
        }
        assert_eq!(FileKind::of(Utf8Path::new("a/b.tf.json")).map(|it| it.syntax), Some(SourceSyntax::Json));
        assert_eq!(FileKind::of_named(Utf8Path::new("notes.txt")).language, Language::Hcl);
    }

    #[test]
    fn terraform_formats_by_name() {
        use TerraformFormat::*;
        for (name, expected) in [
            ("a.tftest.hcl", Some(Test)),
            ("dir/a.tftest.json", Some(Test)),
            ("a.tofutest.hcl", Some(OpenTofuTest)),
            ("a.tfmock.hcl", Some(Mock)),
            ("a.tfmock.json", Some(Mock)),
            ("a.tfquery.json", Some(Query)),
            ("a.tfcomponent.hcl", Some(StackComponents)),
            ("a.tfcomponent.json", Some(StackComponents)),
            ("a.tfstack.hcl", Some(StackComponents)),
            ("a.tfdeploy.hcl", Some(StackDeployments)),
            ("a.tfdeploy.json", None),
            ("a.tfmigrate.hcl", None),
            (".tftest.hcl", None),
            ("main.tf", None),
            ("a.hcl", None),
        ] {
            assert_eq!(TerraformFormat::of(Utf8Path::new(name)), expected, "{name}");
        }
    }

    #[test]
    fn terraform_fmt_files_by_name() {
        for (name, expected) in [
            ("main.tf", true),
            ("dir/main.tofu", true),
            ("terraform.tfvars", true),
            ("x.auto.tfvars", true),
            ("a.tftest.hcl", true),
            ("a.tfmock.hcl", true),
            ("a.ignored.tfmock.hcl", true),
            ("a.tfquery.hcl", true),
            ("a.tofutest.hcl", true),
            // JSON is never formatted; Stacks files and other tools' files
            // get hclwrite's style.
            ("main.tf.json", false),
            ("a.tftest.json", false),
            ("terraform.tfvars.json", false),
            ("a.tfcomponent.hcl", false),
            ("a.tfdeploy.hcl", false),
            ("a.tfstack.hcl", false),
            ("x.tfmigrate.hcl", false),
            (".terraform.lock.hcl", false),
            (".tftest.hcl", false),
            ("build.pkr.hcl", false),
            ("job.nomad", false),
            ("terragrunt.hcl", false),
            ("config.hcl", false),
            ("README.md", false),
        ] {
            assert_eq!(is_terraform_fmt_file(Utf8Path::new(name)), expected, "{name}");
        }
    }

    #[test]
    fn module_files_by_name() {
        for name in [
            "main.tf",
            "main.tofu",
            "a.hcl",
            "build.pkr.hcl",
            "job.nomad",
            "main.tf.json",
            "main.tofu.json",
            "x.hcl.json",
            "b.pkr.json",
            "dir/terragrunt.hcl",
        ] {
            assert!(is_module_file(Utf8Path::new(name)), "{name}");
        }
        for name in [
            "terraform.tfvars",
            "a.tfvars.json",
            "README.md",
            ".main.tf.swp",
            ".#main.tf",
            "#main.tf#",
            "main.tf~",
            "main.tf.tmp",
            ".hidden.tf",
            ".tflint.hcl",
            "4913",
            ".tf",
            "package.json",
        ] {
            assert!(!is_module_file(Utf8Path::new(name)), "{name}");
        }
    }

    #[test]
    fn terraform_automatic_variables_files() {
        for name in [
            "terraform.tfvars",
            "terraform.tfvars.json",
            "a.auto.tfvars",
            "dir/b.auto.tfvars.json",
            "prod-eu.auto.tfvars",
            ".auto.tfvars",
        ] {
            assert!(is_terraform_automatic_variables_file(Utf8Path::new(name)), "{name}");
        }
        for name in [
            "prod.tfvars",
            "x.tfvars.json",
            "a.auto.tfvars~",
            ".a.auto.tfvars.swp",
            "terraform.tfvars.bak",
            "main.tf",
            "auto.tfvars",
        ] {
            assert!(!is_terraform_automatic_variables_file(Utf8Path::new(name)), "{name}");
        }
    }

    #[test]
    fn packers_automatic_variables_files() {
        for name in ["a.auto.pkrvars.hcl", "dir/b.auto.pkrvars.json"] {
            assert!(is_packer_automatic_variables_file(Utf8Path::new(name)), "{name}");
            assert!(is_automatic_variables_file(Utf8Path::new(name)), "{name}");
        }
        for name in ["vars.pkrvars.hcl", "a.auto.tfvars.hcl", "auto.pkrvars.hcl.bak"] {
            assert!(!is_packer_automatic_variables_file(Utf8Path::new(name)), "{name}");
        }
    }

    #[test]
    fn override_files() {
        for name in ["override.tf", "a_override.tf", "override.tf.json", "b_override.tofu.json"] {
            assert!(is_terraform_override_file(Utf8Path::new(name)), "{name}");
        }
        for name in ["main.tf", "overrides.tf", "override.hcl"] {
            assert!(!is_terraform_override_file(Utf8Path::new(name)), "{name}");
        }
    }

    #[test]
    fn path_order_is_path_cmp() {
        let paths = [
            "a",
            "a/b",
            "a/b/c",
            "a.b",
            "a.b/c",
            "a-b",
            "ab",
            "a/bc",
            "a/b.c",
            "a/b-c",
            "a0",
            "a/",
            "a//b",
            "a/./b",
            "./a",
            "./a/b",
            "./a-b",
            "./a.b/c",
            "./ab/c",
            "./a/b/c",
            ".//a",
            "./z/main.tf",
            "././a",
            "./",
            "../a",
            "a/../b",
            ".hidden/x",
            "-x",
            "..x",
            "/a",
            "/a/b",
            "/ab",
            "/",
            "",
            ".",
            "ä/b",
            "a/ä",
            "dir/main.tf",
            "dir/main.tf.json",
            "dir/sub/main.tf",
            "dir.tf",
            "dir-a/main.tf",
            "A",
            "a/b/c/d/e.hcl",
            "modules/x/main.tf",
            "modules/x-y/main.tf",
            "modules/x.y/main.tf",
            "z/ä.tf",
            "z/a.tf",
        ];
        for a in paths {
            for b in paths {
                let (a, b) = (Utf8Path::new(a), Utf8Path::new(b));
                assert_eq!(path_order(a, b), a.cmp(b), "{a} against {b}");
            }
        }
        // Sorted whole: all plain, all `./`-prefixed, or mixed.
        let plain: Vec<&str> = paths.iter().copied().filter(|path| is_plain(path.as_bytes())).collect();
        let prefixed: Vec<String> = plain.iter().map(|path| format!("./{path}")).collect();
        for set in [
            plain.iter().map(|it| it.to_string()).collect::<Vec<_>>(),
            prefixed,
            paths.map(String::from).to_vec(),
        ] {
            let mut sorted: Vec<Utf8PathBuf> = set.iter().rev().map(Utf8PathBuf::from).collect();
            sort_paths(&mut sorted);
            let mut expected: Vec<Utf8PathBuf> = set.iter().map(Utf8PathBuf::from).collect();
            expected.sort();
            assert_eq!(sorted, expected);
        }
    }
    #[test]
    fn sort_by_path_is_a_stable_sort_by_path_order() {
        // Plain paths (the keyed sort) and paths with a `.` component (the
        // comparison's), each several times with a payload that tells the
        // copies apart, in several starting orders.
        let plain = ["m/b.tf", "m/a.tf", "m-x/a.tf", "m/a/b.tf", "m.tf", "m/a.tf", "/m/a.tf", "m/ä.tf"];
        let special = ["m/./a.tf", "m/a.tf", "m//a.tf", "m/b.tf"];
        for paths in [&plain[..], &special[..]] {
            for rotation in 0..paths.len() {
                let mut items: Vec<(Utf8PathBuf, usize)> = paths
                    .iter()
                    .cycle()
                    .skip(rotation)
                    .take(paths.len() * 2)
                    .enumerate()
                    .map(|(at, path)| (Utf8PathBuf::from(*path), at))
                    .collect();
                let mut expected = items.clone();
                expected.sort_by(|a, b| path_order(&a.0, &b.0));
                sort_by_path(&mut items, |item| item.0.as_path());
                assert_eq!(items, expected);
            }
        }
    }
}
