source "amazon-ebs" "base" {
ami_name="base"
}
