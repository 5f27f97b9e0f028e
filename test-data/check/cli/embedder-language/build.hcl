# Each mistake the build tool's schema finds, once.
target "lib" {
  sources = "src/lib.c"
  outptu  = "lib.a"
  step "compile" {
    run     = "cc ${shell_words(target.lib.sources)}"
    timeout = "a minute"
  }
  stage "archive" {}
}

targte "app" {}

target "no" "name" {
  sources = []
  output  = "${project.name}.log"
}
