import itertools, random
random.seed(7)
V=["d","s","n","b","ls","ld","ms","md","ss","o","t","lo","kl","ko"]
L=['"%d"','"%s"','"a"','1','true','["a"]','[1, "a"]','{a = 1}','null','[]','{}','"1"','-1','"[1]"','["a", "b"]']
A=V+L
arity={"upper":1,"lower":1,"length":1,"concat":2,"merge":2,"join":2,"split":2,"keys":1,"values":1,"lookup":3,"element":2,
"coalesce":2,"coalescelist":2,"flatten":1,"distinct":1,"jsonencode":1,"jsondecode":1,"format":2,"formatlist":2,
"tostring":1,"tonumber":1,"tobool":1,"tolist":1,"toset":1,"tomap":1,"zipmap":2,"slice":3,"contains":2,"compact":1,
"reverse":1,"range":2,"sort":1,"chunklist":2,"setproduct":2,"setunion":2,"setintersection":2,"setsubtract":2,"regex":2,
"regexall":2,"replace":3,"substr":3,"trimspace":1,"max":2,"min":2,"abs":1,"csvdecode":1,"int":1,"parseint":2,"indent":2,
"title":1,"strlen":1,"trim":2,"trimprefix":2,"trimsuffix":2,"chomp":1,"strrev":1,"ceil":1,"floor":1,"log":2,"pow":2,
"signum":1,"formatdate":2,"timeadd":2,"regex_replace":3}
out=set()
for f,n in arity.items():
    if n==1:
        for a in A: out.add(f"{f}({a})")
    elif n==2:
        for a in V:
            for b in A:
                out.add(f"{f}({a}, {b})"); out.add(f"{f}({b}, {a})")
    else:
        for a in V:
            for _ in range(40):
                args=[random.choice(A) for _ in range(3)]
                args[random.randrange(3)]=a
                out.add(f"{f}({', '.join(args)})")
ops=["+","-","*","/","%","==","!=","<",">","<=",">=","&&","||"]
for op in ops:
    for a in V:
        for b in A:
            out.add(f"{a} {op} {b}"); out.add(f"{b} {op} {a}")
for a in V:
    out.add(f"-{a}"); out.add(f"!{a}")
    for b in A:
        out.add(f"{a}[{b}]"); out.add(f"{b}[{a}]")
        out.add(f"{a} ? {b} : {a}"); out.add(f"b ? {a} : {b}"); out.add(f"b ? {b} : {a}")
        out.add(f'"x${{{a}}}y"'); out.add(f"[for x in {a} : {b}]"); out.add(f"[for x in {b} : {a}]")
        out.add(f"{{for k, x in {a} : k => x if {b}}}"); out.add(f"[for x in [{a}, {b}] : x]")
        out.add(f"{a}[*].id"); out.add(f"[{a}, {b}][*].id"); out.add(f"{a}.a"); out.add(f"{a}.id")
        out.add(f"{{ ({a}) = {b} }}"); out.add(f"[{a}][0].{b if b.isidentifier() else 'z'}" )
        out.add(f'"%{{if {a}}}x%{{endif}}"'); out.add(f'"%{{for x in {a}}}${{x}}%{{endfor}}"')
        out.add(f"{a}.a[0]"); out.add(f"{a}[0][1]"); out.add(f"b ? [{a}] : [{b}, {a}]")
for a in V:
  for b in V:
    out.add(f"b ? {a} : {b}"); out.add(f"{a} == {b}"); out.add(f"concat({a}, {b})"); out.add(f"merge({a}, {b})")
    out.add(f"b ? [{a}] : {{x = {b}}}"); out.add(f"tolist([{a}, {b}])"); out.add(f"toset([{a}, {b}])"); out.add(f"tomap({{a = {a}, b = {b}}})")
    out.add(f"[{a}, {b}][1]"); out.add(f"{{a = {a}}}[{b}]"); out.add(f"{a}[{b}]")
print("\n".join(sorted(out)))
