root "project" {}
function "shell_words" {}

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
  block "step" {
    labels = ["name"]
    attribute "run" {
      type     = string
      required = true
    }
    attribute "timeout" {
      type = number
    }
  }
}
