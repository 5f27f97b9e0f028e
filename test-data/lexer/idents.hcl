foo _foo foo-bar foo_bar2 __ a-1-
café 名前 ÿ été Ωmega x‍y
1abc -foo
