rule {
  port  = 80
  proto = "tcp"
}
rule {
  port = 53
}
rule {
  proto = "icmp"
}
