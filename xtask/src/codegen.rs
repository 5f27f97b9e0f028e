//! `cargo xtask codegen`: syntax kinds and the typed AST from `hcl.ungram`.

pub(crate) fn run(_args: &[String]) -> anyhow::Result<()> {
    anyhow::bail!("codegen is not written yet")
}
