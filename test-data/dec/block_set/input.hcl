member {
  name   = "zed"
  weight = 3
}
member {
  name   = "amy"
  weight = 10
}
member {
  name   = "amy"
  weight = 10
}
member {
  name   = "bob"
  weight = 2
}
