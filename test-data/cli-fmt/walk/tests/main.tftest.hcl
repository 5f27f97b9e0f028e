run "plan" {
command=plan
}
