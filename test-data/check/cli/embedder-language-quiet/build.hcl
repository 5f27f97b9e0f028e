# Everything the build tool's schema allows: no finding.
variable "profile" {
  default = "debug"
}

locals {
  out = "out/${var.profile}"
}

target "lib" {
  sources = ["src/lib.c"]
  output  = "${local.out}/lib.a"
  step "compile" {
    run     = "cc -c ${shell_words(target.lib.sources)} -o ${project.name}"
    timeout = 60
  }
  step "archive" {
    run = "ar rcs ${target.lib.output} *.o"
  }
}

target "test.lib" {
  sources = []
  output  = "${target.lib.output}.log"
  step "self-test" {
    run     = "${target["test.lib"].output} && ${target.lib.step.compile.run}"
    timeout = "30"
  }
}
