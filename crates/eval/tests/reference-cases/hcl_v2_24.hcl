# Behaviour new in HCL v2.18 to v2.24 (inputs in hcl_v2_24.unknowns.json
# and hcl_v2_24.vars.json).
nested_splat_mixed   = [{ a = [{ b = 1 }, { b = "x" }] }][*].a[*].b
nested_splat_same    = [{ a = [{ b = 1 }, { b = 2 }] }][*].a[*].b
nested_splat_list    = tolist([{ a = [{ b = 1 }] }, { a = [{ b = "x" }] }])[*].a[*].b
nested_splat_null    = tolist([{ a = 1 }, { a = null }])[*].a[*]
nested_splat_scalars = tolist([{ a = 1 }, { a = 2 }])[*].a[*]
nested_splat_unknown = tolist([{ a = 1 }, { a = u }])[*].a[*]
nested_splat_nn      = tolist([{ a = 1 }, { a = nn }])[*].a[*]
unknown_obj_attr     = o["a"]
unknown_obj_missing  = o["nope"]
unknown_obj_dyn_key  = o[s]
ns_unknown_namespace = nosuch::f(1)
ns_suggest           = provider::test::uper("x")
ns_deeper            = provider::test::x::upper("x")
or_both_errors       = undefined_a || undefined_b
or_unknown_left      = b || undefined_var
or_error_left_unk    = undefined_var || b
and_null_right       = true && null
or_error_tuple       = true || [undefined_var]
cond_err_in_logic    = false && (undefined_var ? 1 : 2)
for_cond_unknown_ok  = [for x in l : x if x != ""]
for_cond_null        = [for x in l : x if null]
