# The tests run the application built in app.hcl.

target "test" {
  sources = []
  output  = "${local.out_dir}/test.log"
  deps    = [target.app.output]
  command = "${target.app.output} --self-test > ${target.test.output}"
}
