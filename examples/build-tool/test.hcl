# The tests run the application built in app.hcl. The label has a dot in
# it: the tool's addresses quote it, `target["test.unit"].output`.

target "test.unit" {
  sources = []
  output  = "${local.out_dir}/test.log"
  deps    = [target.app.output]

  step "self-test" {
    run = "${target.app.output} --self-test > ${local.out_dir}/test.log"
    # Optional: how long the step may take, in seconds.
    timeout = 60
  }
}
