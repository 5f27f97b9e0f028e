# one
// two
/* three
 */
a = 1 # four
#
# lone  in a comment
