"""A Bazel test that runs `halite check` over a package's HCL files.

    load("//tools/halite:halite.bzl", "halite_test")

    halite_test(
        name = "halite",
        srcs = glob(["**/*.tf", "**/*.tfvars", "**/*.hcl"]),
        configs = ["//:halite.toml"],   # each halite.toml that applies, the root's included
    )

The test is hermetic and deterministic: it sees only its declared inputs
(the files, the halite.toml files, the binary), copied into a fresh
directory under $TEST_TMPDIR whose root is marked as a repository's (an
empty .git), so that no halite.toml outside the workspace applies and
every path is relative to the workspace's root, as it is outside Bazel.
Halite's output has no time, no absolute path and no run-specific hash, so
the same inputs give the same bytes, and Bazel can cache the result.

With `shard_count`, Bazel runs the test in shards and the wrapper turns
TEST_SHARD_INDEX (from 0) and TEST_TOTAL_SHARDS into `--shard K/N`.
"""

def _halite_test_impl(ctx):
    halite = ctx.executable.halite
    inputs = ctx.files.srcs + ctx.files.configs
    manifest = ctx.actions.declare_file(ctx.label.name + ".files")
    ctx.actions.write(manifest, "\n".join([f.short_path for f in inputs]) + "\n")
    args = ["--quiet", "--color", "never", "--format", ctx.attr.format] + ctx.attr.args_extra
    if ctx.attr.deny_warnings:
        args.append("--deny-warnings")
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.expand_template(
        template = ctx.file._runner,
        output = script,
        substitutions = {
            "@@HALITE@@": halite.short_path,
            "@@MANIFEST@@": manifest.short_path,
            "@@ARGS@@": " ".join(["'%s'" % a for a in args]),
        },
        is_executable = True,
    )
    runfiles = ctx.runfiles(files = inputs + [halite, manifest])
    return [DefaultInfo(executable = script, runfiles = runfiles)]

halite_test = rule(
    implementation = _halite_test_impl,
    test = True,
    attrs = {
        "srcs": attr.label_list(allow_files = True, doc = "The HCL files to check: whole modules (directories), or a module's rules see what is missing as undeclared."),
        "configs": attr.label_list(allow_files = ["halite.toml"], doc = "The halite.toml files that apply to srcs."),
        "format": attr.string(default = "concise", values = ["concise", "human", "json", "junit", "checkstyle", "sarif"]),
        "deny_warnings": attr.bool(default = False),
        "args_extra": attr.string_list(doc = "More `halite check` flags."),
        "halite": attr.label(
            default = Label("//tools/halite:halite"),
            executable = True,
            cfg = "exec",
            doc = "The halite binary: built from source with rules_rust, or a pinned prebuilt one (http_file with its sha256).",
        ),
        "_runner": attr.label(default = Label("//tools/halite:halite_test.sh.tpl"), allow_single_file = True),
    },
)
