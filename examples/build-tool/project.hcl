# The project's settings. `profile` comes from the command line
# (`--var profile=release`) or defaults to a debug build.

variable "profile" {
  type    = string
  default = "debug"
}

locals {
  out_dir = "target/${var.profile}"
  cflags  = var.profile == "release" ? ["-O2", "-DNDEBUG"] : ["-g", "-O0"]
  # `project` is a root the build tool adds (its dialect): where the
  # project lives and what it is called.
  banner = "${project.name} (${var.profile})"
}
