//! Benchmarks of Halite against other HCL implementations, run with
//! `cargo bench -p benchmarks` (see this crate's `README.md`).
//!
//! This package owns the benchmark programs (`benches/`) and what they share:
//! finding and loading the corpus they measure, and reading criterion's
//! estimates back to print throughput ratios. It is never a dependency of
//! anything: the implementations it compares with (hcl-edit) are its
//! dev-dependencies only, so they never reach a build of Halite.

use std::{
    fs,
    path::{Path, PathBuf},
    time::SystemTime,
};

/// The processor the benchmarks run on, as `/proc/cpuinfo` names it
/// ("unknown" where there is no such file): ratios between parsers differ
/// from one processor to another, so every summary says which one it is.
pub fn cpu_model() -> String {
    fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines().find_map(|line| {
                line.strip_prefix("model name")?.split_once(':').map(|(_, name)| name.trim().to_owned())
            })
        })
        .unwrap_or_else(|| "unknown".to_owned())
}

/// A large HCL file of about `bytes` bytes, the same on every run: blocks of
/// the kinds Terraform configurations are made of (variables with types and
/// defaults, resources with nested blocks, locals with `for` expressions,
/// conditionals, function calls, templates with interpolations, heredocs,
/// comments), with numbered names so that identifiers vary as they do in
/// real files. One large file measures what a corpus of small ones cannot:
/// deep token caches, long bodies, big trees.
pub fn generated_file(bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 1024);
    let mut i = 0usize;
    while out.len() < bytes {
        let n = i % 97;
        out.push_str(&format!(
            r#"# Variable {i}: one of the inputs.
variable "input_{i}" {{
  description = "The {n}th input, used by resource {i}"
  type        = map(object({{ name = string, size = number, tags = list(string) }}))
  default     = {{}}
  validation {{
    condition     = length(var.input_{i}) <= {n}
    error_message = "At most {n} entries."
  }}
}}

resource "aws_instance" "server_{i}" {{
  count         = var.enabled ? {n} : 0
  ami           = data.aws_ami.image_{n}.id
  instance_type = lookup(var.sizes, "type_{n}", "t3.micro")
  subnet_id     = element(module.network.subnet_ids, count.index % {n_plus})
  tags = merge(local.common_tags, {{
    Name = "server-${{count.index}}-{i}"
    Role = upper(var.role)
  }})

  ebs_block_device {{
    device_name = "/dev/sdh"
    volume_size = 10 * ({n} + 1)
    encrypted   = true
  }}

  // The user data runs once, at first boot.
  user_data = <<-EOT
    #!/bin/sh
    echo "server ${{count.index}} of {n}" > /etc/motd
  EOT
}}

locals {{
  names_{i}   = [for item in var.input_{i} : lower(item.name) if item.size > {n}]
  by_name_{i} = {{ for key, item in var.input_{i} : key => item.tags... }}
  first_{i}   = try(local.names_{i}[0], null)
  enabled_{i} = !var.disabled && (var.count_{n} >= 1 || var.force)
  splat_{i}   = aws_instance.server_{i}[*].private_ip
}}

"#,
            n_plus = n + 1,
        ));
        i += 1;
    }
    out
}

/// The root of the workspace, whatever directory cargo was started in.
pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files one benchmark run measures, loaded into memory beforehand so
/// that reading them is not timed.
pub struct Corpus {
    pub dir: PathBuf,
    pub files: Vec<String>,
    pub bytes: u64,
    /// Files that are not UTF-8: neither parser takes bytes, so they are left
    /// out of the timing (and of `bytes`).
    pub skipped: usize,
}

impl Corpus {
    /// Every file of [`corpus_dir`], in path order.
    pub fn load() -> Corpus {
        let dir = corpus_dir();
        let mut paths = Vec::new();
        collect_files(&dir, &mut paths);
        // Sorted so that every run parses the files in the same order.
        paths.sort();
        let mut corpus = Corpus { dir, files: Vec::new(), bytes: 0, skipped: 0 };
        for path in paths {
            let bytes = fs::read(&path).unwrap_or_else(|err| panic!("reading {}: {err}", path.display()));
            match String::from_utf8(bytes) {
                Ok(text) => {
                    corpus.bytes += text.len() as u64;
                    corpus.files.push(text);
                }
                Err(_) => corpus.skipped += 1,
            }
        }
        assert!(!corpus.files.is_empty(), "no files to benchmark in {}", corpus.dir.display());
        corpus
    }
}

/// The directory the benchmarks measure: the whole shared corpus when it is
/// there (`../shared/corpus/input`), else the vendored subset
/// (`test-data/corpus/input`), unless the `HALITE_BENCH_CORPUS` environment
/// variable names another (relative to the workspace root, not to
/// `crates/bench`, where cargo starts benchmarks). Canonical, so that the
/// path printed with the results is readable.
pub fn corpus_dir() -> PathBuf {
    let root = project_root();
    let dir = match std::env::var_os("HALITE_BENCH_CORPUS") {
        Some(dir) => root.join(dir),
        None => {
            let shared = root.join("../shared/corpus/input");
            if shared.is_dir() { shared } else { root.join("test-data/corpus/input") }
        }
    };
    dir.canonicalize().unwrap_or(dir)
}

/// Appends every file below `dir` to `out`, recursively.
pub fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|err| panic!("reading {}: {err}", dir.display()));
    for entry in entries {
        let path = entry.unwrap_or_else(|err| panic!("reading {}: {err}", dir.display())).path();
        if path.is_dir() {
            collect_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The criterion settings of every benchmark here: few samples and short
/// phases, because one iteration processes the whole corpus, the machine
/// has two cores shared with builds, and the comparisons need ratios, not
/// tight intervals on each figure.
pub fn criterion_config() -> criterion::Criterion {
    criterion::Criterion::default()
        .output_directory(&criterion_home())
        .sample_size(10)
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(4))
}

/// Where criterion writes its results, chosen here rather than left to
/// criterion so that [`mean_seconds`] knows where to read them back: the
/// order of preference is criterion's own.
pub fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(target) => PathBuf::from(target).join("criterion"),
        None => project_root().join("target/criterion"),
    }
}

/// The mean time of one iteration of benchmark `group/function`, as
/// criterion estimated it, if it was measured since `since` (so a filtered or
/// test-mode run never reports a stale figure from an earlier run).
pub fn mean_seconds(group: &str, function: &str, since: SystemTime) -> Option<f64> {
    let path = criterion_home().join(group).join(function).join("new/estimates.json");
    let modified = fs::metadata(&path).ok()?.modified().ok()?;
    if modified < since {
        return None;
    }
    let estimates: serde_json::Value = serde_json::from_slice(&fs::read(&path).ok()?).ok()?;
    let nanos = estimates.get("mean")?.get("point_estimate")?.as_f64()?;
    Some(nanos / 1e9)
}
