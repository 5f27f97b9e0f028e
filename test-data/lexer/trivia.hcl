# hash comment
// slash comment
/* block */ a /* multi
line */ = 1 # trailing
	 	b	= 2

# no newline at the end