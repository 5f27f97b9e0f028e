resource    "a"     "b"{
  x=1
  y    =    2
  f = func (1,2)
  g = func( 1 , 2 , )
  h = [ 1 , 2 ]
  i = ( 1 + 2 ) * 3
  j = a ? b : c
  k = a  ==  b
  l = null
  m = true&&false
}
block label1 "label2" {
}
