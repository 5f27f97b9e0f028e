# content: a! b!
