# The schema of the build tool's language, which `halite.toml` names (in a
# directory of its own, so that it is no file of the configuration):
# `halite check` reports an unknown block type or attribute (with a
# did-you-mean), a missing required attribute, a wrong number of labels and
# an attribute's value of the wrong type, as the tool would.

# What the tool provides: `project.name`, and `shell_words(list)`.
root "project" {}
function "shell_words" {}

# A target: what it builds from which sources, what it needs built first,
# and the steps that build it, in order.
block "target" {
  labels = ["name"]

  attribute "sources" {
    type     = list(string)
    required = true
  }
  attribute "output" {
    type     = string
    required = true
  }
  attribute "deps" {
    type     = list(string)
    required = true
  }

  block "step" {
    labels = ["name"]

    attribute "run" {
      type     = string
      required = true
    }
    # How long the step may take, in seconds.
    attribute "timeout" {
      type = number
    }
  }
}
