a = provider :: aws :: arn_parse( "x" )
bb = core::lower("ABC")
ccc = "${provider::test::upper ( "t" )}-x"
list = [ for s in ["a"] : provider :: t :: f ( s ) ]
