# The library: its sources compiled, then archived. Each `step` is a
# command the tool runs in order; its label names it in the plan.

target "lib" {
  sources = ["src/parse.c", "src/eval.c"]
  output  = "${local.out_dir}/libcalc.a"
  deps    = []

  # `shell_words` is a function the build tool registers: it quotes each
  # word for a POSIX shell and joins them with spaces.
  step "compile" {
    run = "cc ${shell_words(local.cflags)} -c ${shell_words(target.lib.sources)}"
  }
  step "archive" {
    run = "ar rcs ${target.lib.output} *.o"
  }
}
