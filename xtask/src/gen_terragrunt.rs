//! `cargo xtask gen-terragrunt --units N --out DIR [--seed S]`: a
//! Terragrunt live repository of N units, shaped as Gruntwork's reference
//! architecture lays one out, for measuring `halite check` on a monorepo
//! of that size (`cargo xtask bench-check --tree DIR`).
//!
//! - `root.hcl`: the configuration every unit includes
//!   (`find_in_parent_folders("root.hcl")`): locals read from the
//!   account, region and environment files with `read_terragrunt_config`,
//!   `remote_state`, a `generate`d provider, and inputs every module takes.
//! - `live/ACCOUNT/REGION/ENV/`: `account.hcl`, `region.hcl` and `env.hcl`
//!   files, and a unit directory per component instance, each a
//!   `terragrunt.hcl` that includes the root and its component's shared
//!   file (`_envcommon/COMPONENT.hcl`, found through
//!   `get_terragrunt_dir()`, exposed), declares one to three `dependency`
//!   blocks on earlier components of its environment (so the graph is a
//!   DAG of realistic fan-in), and passes `inputs` built from its locals,
//!   the included file's locals and its dependencies' outputs.
//! - `_envcommon/COMPONENT.hcl`: the component's `terraform { source }`
//!   (the local module), its locals, and its own common inputs.
//! - `modules/COMPONENT/`: the Terraform module each component deploys,
//!   with the variables the units set and the outputs they read.
//!
//! Every unit is valid: the check of the tree reports no error. The
//! generator uses the standard library only, and is deterministic for a
//! seed.

use std::{fmt::Write as _, path::Path};

use anyhow::{Context, bail};

/// The components of an environment; a unit depends on components that
/// come before its own.
const COMPONENTS: &[&str] = &[
    "vpc", "dns", "kms", "iam", "s3", "rds", "redis", "sqs", "sns", "ecr", "eks", "alb", "waf", "acm",
    "lambda", "api", "cdn", "logs", "alarms", "backup",
];

const REGIONS: &[&str] = &["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2"];
const ENVS: &[&str] = &["dev", "qa", "stage", "prod", "sandbox"];

/// A small deterministic generator (a linear congruential one).
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut units = 10_000;
    let mut out = None;
    let mut seed = 17;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().context("a flag without its value");
        match arg.as_str() {
            "--units" => units = value()?.parse().context("--units takes a number")?,
            "--out" => out = Some(value()?.clone()),
            "--seed" => seed = value()?.parse().context("--seed takes a number")?,
            _ => bail!("usage: cargo xtask gen-terragrunt --units N --out DIR [--seed S]"),
        }
    }
    let out = out.context("--out DIR is required")?;
    let bytes = generate(Path::new(&out), units, seed)?;
    println!("{units} units in {out} ({bytes} bytes of HCL)");
    Ok(())
}

/// Writes the tree; returns how many bytes it wrote.
fn generate(out: &Path, units: usize, seed: u64) -> anyhow::Result<usize> {
    let mut random = Random(seed);
    let mut written = 0;
    let mut write = |path: &Path, text: &str| -> anyhow::Result<()> {
        std::fs::create_dir_all(path.parent().context("a file in a directory")?)?;
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
        written += text.len();
        Ok(())
    };
    write(&out.join("root.hcl"), ROOT)?;
    for (index, component) in COMPONENTS.iter().enumerate() {
        write(&out.join(format!("_envcommon/{component}.hcl")), &envcommon(component, index))?;
        let module = out.join(format!("modules/{component}"));
        write(&module.join("variables.tf"), &module_variables(component))?;
        write(&module.join("main.tf"), &module_main(component))?;
        write(&module.join("outputs.tf"), &module_outputs(component))?;
    }
    // Environments of COMPONENTS × instances units each, until N units.
    let per_instance = COMPONENTS.len();
    let instances = 5;
    let per_env = per_instance * instances;
    let envs = units.div_ceil(per_env);
    let mut made = 0;
    'envs: for env_index in 0..envs {
        let account = format!("account-{}", env_index / (REGIONS.len() * ENVS.len()));
        let region = REGIONS[(env_index / ENVS.len()) % REGIONS.len()];
        let env = ENVS[env_index % ENVS.len()];
        let dir = out.join(format!("live/{account}/{region}/{env}"));
        if !dir.join("env.hcl").exists() {
            write(
                &out.join(format!("live/{account}/account.hcl")),
                &format!(
                    "locals {{\n  account_name = \"{account}\"\n  account_id   = \"{:012}\"\n}}\n",
                    100_000 + env_index
                ),
            )?;
            write(
                &out.join(format!("live/{account}/{region}/region.hcl")),
                &format!("locals {{\n  aws_region = \"{region}\"\n}}\n"),
            )?;
            write(&dir.join("env.hcl"), &format!("locals {{\n  environment = \"{env}\"\n}}\n"))?;
        }
        for instance in 0..instances {
            for (index, component) in COMPONENTS.iter().enumerate() {
                if made == units {
                    break 'envs;
                }
                let unit = unit(component, index, instance, &mut random);
                write(&dir.join(format!("{component}-{instance}/terragrunt.hcl")), &unit)?;
                made += 1;
            }
        }
    }
    Ok(written)
}

const ROOT: &str = r#"# The configuration every unit includes.
locals {
  account_vars = read_terragrunt_config(find_in_parent_folders("account.hcl"))
  region_vars  = read_terragrunt_config(find_in_parent_folders("region.hcl"))
  env_vars     = read_terragrunt_config(find_in_parent_folders("env.hcl"))

  account_name = local.account_vars.locals.account_name
  account_id   = local.account_vars.locals.account_id
  aws_region   = local.region_vars.locals.aws_region
  environment  = local.env_vars.locals.environment
}

generate "provider" {
  path      = "provider.tf"
  if_exists = "overwrite_terragrunt"
  contents  = <<EOF
provider "aws" {
  region              = "${local.aws_region}"
  allowed_account_ids = ["${local.account_id}"]
}
EOF
}

remote_state {
  backend = "s3"
  config = {
    encrypt        = true
    bucket         = "${get_env("TG_BUCKET_PREFIX", "")}terragrunt-state-${local.account_name}-${local.aws_region}"
    key            = "${path_relative_to_include()}/tf.tfstate"
    region         = local.aws_region
    dynamodb_table = "terraform-locks"
  }
  generate = {
    path      = "backend.tf"
    if_exists = "overwrite_terragrunt"
  }
}

inputs = merge(
  local.account_vars.locals,
  local.region_vars.locals,
  local.env_vars.locals,
)
"#;

/// The dependencies of component `index`: one to three earlier ones.
fn dependencies(index: usize, random: &mut Random) -> Vec<usize> {
    if index == 0 {
        return Vec::new();
    }
    let count = 1 + random.below(3).min(index - 1);
    let mut out = vec![0];
    while out.len() < count {
        let candidate = random.below(index);
        if !out.contains(&candidate) {
            out.push(candidate);
        }
    }
    out.sort_unstable();
    out
}

fn envcommon(component: &str, index: usize) -> String {
    let mut text = String::new();
    let _ = write!(
        text,
        r#"# What every `{component}` unit shares.
locals {{
  component = "{component}"
  tier      = "{tier}"
  base_tags = {{
    Component = "{component}"
    ManagedBy = "terragrunt"
  }}
}}

terraform {{
  source = "${{get_terragrunt_dir()}}/../../../../../modules//{component}"
}}

inputs = {{
  component = local.component
  retention = {retention}
}}
"#,
        tier = if index < 5 { "network" } else { "service" },
        retention = 7 + index,
    );
    text
}

fn unit(component: &str, index: usize, instance: usize, random: &mut Random) -> String {
    let mut text = String::new();
    let _ = write!(
        text,
        r#"include "root" {{
  path = find_in_parent_folders("root.hcl")
}}

include "envcommon" {{
  path   = "${{get_terragrunt_dir()}}/../../../../../_envcommon/{component}.hcl"
  expose = true
}}
"#
    );
    let dependencies = dependencies(index, random);
    for &dependency in &dependencies {
        let name = COMPONENTS[dependency];
        let _ = write!(
            text,
            r#"
dependency "{name}" {{
  config_path = "../{name}-{instance}"
  mock_outputs = {{
    id  = "mock-{name}"
    arn = "arn:aws:mock:::{name}"
  }}
  mock_outputs_allowed_terraform_commands = ["validate", "plan"]
}}
"#
        );
    }
    let _ = write!(
        text,
        r#"
locals {{
  name = "${{include.envcommon.locals.component}}-{instance}"
  tags = merge(include.envcommon.locals.base_tags, {{
    Instance = "{instance}"
    Tier     = include.envcommon.locals.tier
  }})
}}

inputs = {{
  name = local.name
  tags = local.tags
  size = {size}
"#,
        size = 1 + random.below(8),
    );
    for &dependency in &dependencies {
        let name = COMPONENTS[dependency];
        let _ = writeln!(text, "  {name}_id = dependency.{name}.outputs.id");
    }
    text.push_str("}\n");
    text
}

fn module_variables(component: &str) -> String {
    let mut text = String::new();
    for (name, ty, default) in [
        ("name", "string", None),
        ("tags", "map(string)", Some("{}")),
        ("size", "number", Some("1")),
        ("component", "string", None),
        ("retention", "number", Some("7")),
        ("account_name", "string", None),
        ("account_id", "string", None),
        ("aws_region", "string", None),
        ("environment", "string", None),
    ] {
        let _ = write!(text, "variable \"{name}\" {{\n  type = {ty}\n");
        if let Some(default) = default {
            let _ = writeln!(text, "  default = {default}");
        }
        text.push_str("}\n\n");
    }
    // Every component's id a unit may pass.
    for other in COMPONENTS.iter().filter(|other| **other != component) {
        let _ = write!(text, "variable \"{other}_id\" {{\n  type    = string\n  default = null\n}}\n\n");
    }
    text
}

fn module_main(component: &str) -> String {
    format!(
        r#"locals {{
  full_name = "${{var.environment}}-${{var.name}}"
  all_tags  = merge(var.tags, {{ Environment = var.environment, Region = var.aws_region }})
}}

resource "terraform_data" "{component}" {{
  count = var.size
  input = {{
    name      = "${{local.full_name}}-${{count.index}}"
    tags      = local.all_tags
    retention = var.retention
  }}
}}
"#
    )
}

fn module_outputs(component: &str) -> String {
    format!(
        r#"output "id" {{
  value = terraform_data.{component}[0].id
}}

output "arn" {{
  value = "arn:aws:{component}:${{var.aws_region}}:${{var.account_id}}:${{local.full_name}}"
}}

output "name" {{
  value = local.full_name
}}
"#
    )
}
