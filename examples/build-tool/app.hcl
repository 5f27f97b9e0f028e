# The application links the library built in library.hcl.

target "app" {
  sources = ["src/main.c"]
  output  = "${local.out_dir}/calc"
  deps    = [target.lib.output]

  step "link" {
    run = "cc ${shell_words(local.cflags)} -o ${target.app.output} ${shell_words(concat(target.app.sources, target.app.deps))}"
  }
}
