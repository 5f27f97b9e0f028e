# content: count name! network[] lifecycle[]
nmae = "x"
network = "10.0.0.0/8"
lifecycl {}
name {
}
count = 1
