"""Writes reference.tsv: the reference JSON parser's first error on each file
under the directory given, from the reference hcldec's JSON diagnostics.
Usage: python3 make-reference.py input > reference.tsv"""
import json, subprocess, os, sys, tempfile
SPEC = os.path.join(tempfile.mkdtemp(), "literal.hcldec")
with open(SPEC, "w") as spec:
    spec.write("literal { value = 1 }\n")
# The parser's own summaries; anything else is a schema error, not a parse error.
PARSE = {"Extraneous data after value","Missing JSON value","Missing array element value","Missing value","Invalid start of value",
"Invalid object property name","Missing object value","Missing property value colon","Trailing comma in object","Unclosed object",
"Mismatched braces","Missing attribute seperator comma","Trailing comma in array","Invalid array value","Mismatched brackets",
"Invalid JSON number","Invalid JSON string","Invalid JSON keyword"}
root = sys.argv[1]
rows = []
for dp, dn, fn in os.walk(root):
    for f in fn:
        path = os.path.relpath(os.path.join(dp, f), root)
        out = subprocess.run(["/work/shared/oracle/bin/hcldec","--spec",SPEC,"--diags=json",os.path.join(root,path)],capture_output=True,text=True)
        try:
            diags = json.loads(out.stdout or out.stderr)["diagnostics"]
        except Exception:
            diags = []
        parse = [d for d in diags if d["summary"] in PARSE]
        if parse:
            d = parse[0]; s = d["subject"]["start"]
            rows.append((path, "no", str(s["line"]), str(s["column"]), str(s["byte"]), d["summary"]))
        else:
            rows.append((path, "yes", "-", "-", "-", "-"))
rows.sort()
print("path\treference_parses\tline\tcolumn\tbyte\tsummary")
for r in rows: print("\t".join(r))
