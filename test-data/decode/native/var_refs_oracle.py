#!/usr/bin/env python3
"""Makes the reference's traversals for the cases of variables/: each case's
attribute `a` through the reference `hcldec --var-refs` with the spec
`object { attr "a" { type = any } }`, written as NAME.oracle.txt in the
test's one-line form (root@range, .attr@range, [key]@range, then the whole
traversal's range).

Run from the repository root: python3 test-data/decode/native/var_refs_oracle.py
"""

import json
import os
import subprocess
import tempfile

HCLDEC = os.path.abspath(os.environ.get("HCLDEC", "../shared/oracle/bin/hcldec"))
HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = 'object {\n  attr "a" {\n    type = any\n  }\n}\n'


def short(r):
    s, e = r["start"], r["end"]
    return f'{s["line"]}:{s["column"]}-{e["line"]}:{e["column"]}'


def main():
    cases = os.path.join(HERE, "variables")
    with tempfile.NamedTemporaryFile("w", suffix=".hcldec", delete=False) as spec:
        spec.write(SPEC)
    for name in sorted(os.listdir(cases)):
        if not name.endswith(".hcl"):
            continue
        result = subprocess.run(
            [HCLDEC, "--spec", spec.name, "--var-refs", name], cwd=cases, capture_output=True, text=True, check=True
        )
        lines = []
        for traversal in json.loads(result.stdout):
            parts = []
            for step in traversal["steps"]:
                if step["kind"] == "root":
                    parts.append(f'{step["name"]}@{short(step["range"])}')
                elif step["kind"] == "attr":
                    parts.append(f' .{step["name"]}@{short(step["range"])}')
                else:
                    key = json.dumps(step["key"], ensure_ascii=False, separators=(",", ":"))
                    parts.append(f' [{key}]@{short(step["range"])}')
            parts.append(f' ({short(traversal["range"])})')
            lines.append("".join(parts))
        with open(os.path.join(cases, name[: -len(".hcl")] + ".oracle.txt"), "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))
    os.unlink(spec.name)


main()
