# The library: compiled from its sources into an archive.

target "lib" {
  sources = ["src/parse.c", "src/eval.c"]
  output  = "${local.out_dir}/libcalc.a"
  deps    = []
  # `shell_words` is a function the build tool registers: it quotes each
  # word for a POSIX shell and joins them with spaces.
  command = "cc ${shell_words(local.cflags)} -c ${shell_words(target.lib.sources)} && ar rcs ${target.lib.output} *.o"
}
