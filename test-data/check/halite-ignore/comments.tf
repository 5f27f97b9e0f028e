locals {
  # halite-ignore: interpolation-only
  a = "${var.a}"
  b = "${var.b}" # halite-ignore: interpolation-only
  c = "${var.c}" // halite-ignore: legacy-index, interpolation-only
  # An ignore for another rule silences nothing here.
  d = "${var.d}" # halite-ignore: legacy-index
  # halite-ignore
  e = "${var.e}"
  f = "${var.f}" # halite-ignore: interpolaton-only
  g = var.g.0 # halite-ignore:
  # The comment applies to the next line only.
  # halite-ignore: interpolation-only

  h = "${var.h}"
  # halite-ignored is another word, not an ignore comment.
  i = "${var.i}" # halite-ignore: attribute-splat,interpolation-only
}
