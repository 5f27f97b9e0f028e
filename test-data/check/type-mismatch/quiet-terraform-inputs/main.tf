# Unknowns of every kind flowing through functions, operators,
# conditionals, for expressions, splats and templates: nothing here is
# wrong for every value the inputs may take, so nothing is reported.
variable "name" {
  type = string
}

variable "port" {
  type = number
}

variable "names" {
  type = list(string)
}

variable "tags" {
  type = map(string)
}

variable "settings" {
  type = object({
    region  = string
    zones   = list(string)
    enabled = bool
  })
}

variable "anything" {}

variable "maybe" {
  type    = any
  default = null
}

resource "aws_instance" "web" {
  ami           = "ami-123"
  instance_type = var.anything
  # Written null: the provider computes it.
  availability_zone = null
}

locals {
  # A string variable may hold a number or a bool.
  next_port   = var.name + 1
  not_name    = !var.name
  # Anything may be anything.
  sum         = var.anything + var.anything
  flag        = var.anything ? var.port : var.name
  picked      = var.anything[0]
  attr        = var.anything.nested.deep
  spread      = [var.anything[*].id, aws_instance.web[*].id]
  # A resource's attribute is unknown, even one written null or as a string.
  zone        = "${aws_instance.web.availability_zone}-a"
  type_count  = aws_instance.web.ami + 1
  # Functions of unknown arguments give unknowns of their types.
  joined      = join(",", var.names)
  upper_name  = upper(var.name)
  merged      = merge(var.tags, { Name = var.name }, var.anything)
  first_zone  = element(var.settings.zones, 0)
  concat      = concat(var.names, [var.anything], ["x"])
  decoded     = jsondecode(var.name).key
  encoded     = jsonencode({ a = var.anything, b = var.names })
  keys        = keys(var.tags)
  lookup      = lookup(var.tags, var.name, "default")
  coalesced   = coalesce(var.maybe, var.name, "x")
  listed      = coalescelist(var.names, var.anything, ["a"])
  flat        = flatten([var.names, var.anything])
  distinct    = distinct(concat(var.names, ["a"]))
  formatted   = format("%s:%d", var.name, var.port)
  # Conditionals unify both sides; unknown sides unify with anything.
  chosen      = var.settings.enabled ? var.names : ["a", "b"]
  chosen_map  = var.name == "" ? var.tags : { Name = "x" }
  nullable    = var.settings.enabled ? null : var.settings
  any_side    = var.settings.enabled ? var.anything : [1, 2, 3]
  # for expressions over unknown collections, with unknown conditions.
  upper_names = [for n in var.names : upper(n) if n != var.name]
  by_name     = { for k, v in var.tags : k => "${v}-${var.name}" }
  grouped     = { for z in var.settings.zones : substr(z, 0, 1) => z... }
  over_any    = [for x in var.anything : x.id]
  # Templates of unknown strings, numbers and bools.
  label       = "${var.name}-${var.port}-${var.settings.enabled}"
  directive   = "%{if var.settings.enabled}on%{else}off%{endif}%{for z in var.names}${z}%{endfor}"
  # Indexes of unknown collections and unknown indexes of known ones.
  second      = var.names[1]
  by_index    = ["a", "b"][var.port]
  tag         = var.tags["Name"]
  zone_index  = var.settings.zones[var.port]
  # HCL checks neither the type of an unknown condition nor an unknown
  # interpolated value.
  on_object   = var.settings ? "a" : "b"
  in_template = "${var.settings}-label"
  # try and can wait for unknowns.
  tried       = try(var.anything.deep.value, "fallback")
  checked     = can(var.anything.deep)
}

output "all" {
  value = [
    local.next_port, local.not_name, local.sum, local.flag, local.picked, local.attr,
    local.spread, local.zone, local.type_count, local.joined, local.upper_name,
    local.merged, local.first_zone, local.concat, local.decoded, local.encoded,
    local.keys, local.lookup, local.coalesced, local.listed, local.flat,
    local.distinct, local.formatted, local.chosen, local.chosen_map, local.nullable,
    local.any_side, local.upper_names, local.by_name, local.grouped, local.over_any,
    local.label, local.directive, local.second, local.by_index, local.tag,
    local.zone_index, local.tried, local.checked, local.on_object, local.in_template,
  ]
}
