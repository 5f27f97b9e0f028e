# Refined unknowns through more operations (the inputs are in
# refine_more.unknowns.json), beside the shared refine_unknowns cases.
cond_num_ranges      = b ? n : k
cond_num_known       = b ? 1 : 5
cond_num_mixed_inc   = b ? n : 10
cond_lists           = b ? bl : ["a"]
cond_nulls           = b ? null : null
cond_one_null        = b ? s : null
cond_strings         = b ? pre_s : "x"
cmp_ge_edge          = n >= 0
cmp_le_edge          = n <= 10
cmp_lt_above         = n < 10
cmp_lt_far           = n < 11
cmp_gt_both          = n > k
cmp_eq_two_unknowns  = n == k
ne_null_nn           = nn_s != null
eq_empty_list        = bl == []
eq_bounded_list_len  = bl == ["a", "b", "c"]
eq_long_list         = bl == ["a", "b", "c", "d", "e", "f"]
eq_null_dyn          = null == d
logic_unknown_true   = b || true
logic_unknown_false  = b && false
logic_unknown_unk    = b || b
logic_not            = !b
arith_minus          = -n
arith_mul            = n * 2
template_long        = "${"0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"}${s}"
template_multibyte   = "${"é"}${s}"
template_punct       = "https://${s}"
template_after_unk   = "${s}suffix"
template_known_dir   = "a-%{if b}x%{else}y%{endif}"
heredoc_prefix       = <<EOT
line-${s}
EOT
format_prefix        = format("id-%s", s)
format_percent_first = format("%s-id", s)
formatlist_unknown   = formatlist("x-%s", l)
formatlist_partial   = formatlist("x-%s", ["a", s])
jsonencode_nn_obj    = jsonencode({ a = s })
jsonencode_nn_list   = jsonencode([s])
jsonencode_nn_str    = jsonencode(nn_s)
jsonencode_maybe_null = jsonencode(s)
jsondecode_quote     = jsondecode(json_str)
jsondecode_brace     = jsondecode(json_obj)
jsondecode_bad       = jsondecode(json_bad)
jsondecode_num       = jsondecode(json_num)
strlen_prefix        = strlen(pre_s)
strlen_plain         = strlen(s)
sort_bounded         = sort(bl)
sort_unknown_elem    = sort(["b", s])
setproduct_bounded   = setproduct(bl, ["x", "y"])
setproduct_empty     = setproduct(l, [])
tolist_tuple         = tolist(t)
toset_tuple          = toset(t)
tomap_object         = tomap(o)
length_set_partial   = length(toset(["a", s]))
length_set_one       = length(toset([s]))
length_tuple_unknown = length(t)
splat_nn_object      = nn_o[*].a
splat_object         = o[*].a
splat_bounded        = obj_bl[*].name
upper_dynamic        = upper(d)
title_dynamic        = title(d)
abs_refined          = abs(n)
max_refined          = max(n, 20)
keys_map             = keys(m)
values_map           = values(m)
index_refined        = bl[10]
element_refined      = element(bl, 7)
contains_refined     = contains(bl, "a")
lookup_unknown_key   = lookup({ a = 1 }, s, 0)
coalesce_unknown_nn  = coalesce(nn_s, s)
try_refined          = try(nn_s, "x")
can_refined          = can(n)
for_known_list       = [for x in ["a", "b"] : "${x}${s}"]
merge_unknown        = merge(o, { z = 1 })
