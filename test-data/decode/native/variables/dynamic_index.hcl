a = foo.x[count.index].name
