target "lib" {
  output = "out/lib.a"
  step "compile" {
    flags = ["-g"]
  }
}

target "test.unit" {
  deps = [target.lib.output]
  step "self-test" {
    run = "run ${join(" ", target.lib.step.compile.flags)} > ${target["test.unit"].deps[0]}.log"
  }
  step {
    n = 1
  }
  step {
    n = 2
  }
}
