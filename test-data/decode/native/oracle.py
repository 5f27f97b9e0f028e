#!/usr/bin/env python3
"""Makes the reference's diagnostics for the files of merged/ decoded
together with merged/spec.hcldec, for the cases of values/ (each
top-level attribute decoded as `type = any` in hcldec's empty context) and
for the `# content:` cases of content/: a hcldec spec from the schema line (attributes of type any, block
types as block_map with their labels or block_list without), run through
the reference hcldec (HCLDEC, by default ../shared/oracle/bin/hcldec) with
--diags=json, and written as NAME.oracle.txt in the test's one-line form.
The files here were made with an hcldec of HCL v2.24.0 (the default is
v2.14.1, whose conversion errors are worded more briefly).

Run from the repository root: python3 test-data/decode/native/oracle.py
"""

import json
import os
import re
import subprocess
import tempfile

HCLDEC = os.path.abspath(os.environ.get("HCLDEC", "../shared/oracle/bin/hcldec"))
HERE = os.path.dirname(os.path.abspath(__file__))


def spec_for(schema):
    lines = ["object {"]
    for item in schema.split():
        if "[" in item:
            name, labels = item.split("[", 1)
            labels = [it for it in labels.rstrip("]").split(",") if it]
            if labels:
                quoted = ", ".join(json.dumps(it) for it in labels)
                lines += [f'  block_map "{name}" {{', f"    labels = [{quoted}]", "    object {", "    }", "  }"]
            else:
                lines += [f'  block_list "{name}" {{', "    object {", "    }", "  }"]
        else:
            required = item.endswith("!")
            name = item.rstrip("!")
            lines += [f'  attr "{name}" {{', "    type = any"]
            if required:
                lines.append("    required = true")
            lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def rng(r):
    s, e = r["start"], r["end"]
    return f'{r["filename"]}:{s["line"]}:{s["column"]}-{e["line"]}:{e["column"]}({s["byte"]}-{e["byte"]})'


def values_spec(path):
    """A spec with an attribute of type any for each top-level attribute."""
    names = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            match = re.match(r"([A-Za-z_][A-Za-z0-9_-]*)\s*=", line)
            if match:
                names.append(match.group(1))
    return "object {\n" + "".join(f'  attr "{n}" {{\n    type = any\n  }}\n' for n in names) + "}\n"


def oracle_diagnostics(cases, names, spec_text):
    with tempfile.NamedTemporaryFile("w", suffix=".hcldec", delete=False) as spec:
        spec.write(spec_text)
    names = [names] if isinstance(names, str) else names
    result = subprocess.run(
        [HCLDEC, "--spec", spec.name, "--diags=json", *names], cwd=cases, capture_output=True, text=True
    )
    os.unlink(spec.name)
    out = result.stderr
    at = out.find('{\n  "diagnostics"')
    lines = []
    if at >= 0:
        for d in json.loads(out[at:])["diagnostics"]:
            subject = rng(d["subject"]) if d.get("subject") else "-"
            lines.append(f'{d["severity"]}: {d["summary"]} | {d["detail"]} | {subject}')
    return lines


def write_lines(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        # Sorted: the reference reports attributes in the random order of a Go map.
        f.write("".join(line + "\n" for line in sorted(lines)))


def main():
    merged = os.path.join(HERE, "merged")
    with open(os.path.join(merged, "spec.hcldec"), encoding="utf-8") as f:
        spec_text = f.read()
    files = sorted(name for name in os.listdir(merged) if name.endswith(".hcl"))
    write_lines(os.path.join(merged, "oracle.txt"), oracle_diagnostics(merged, files, spec_text))
    values = os.path.join(HERE, "values")
    for name in sorted(os.listdir(values)):
        if name.endswith(".hcl"):
            path = os.path.join(values, name)
            write_lines(path[: -len(".hcl")] + ".oracle.txt", oracle_diagnostics(values, name, values_spec(path)))
    cases = os.path.join(HERE, "content")
    for name in sorted(os.listdir(cases)):
        if not name.endswith(".hcl"):
            continue
        path = os.path.join(cases, name)
        with open(path, encoding="utf-8") as f:
            first = f.readline().split("#", 1)[-1].strip()
        # A file with syntax errors is not decoded by hcldec at all.
        if not first.startswith("content:") or name.startswith("syntax_"):
            continue
        lines = oracle_diagnostics(cases, name, spec_for(first[len("content:"):]))
        write_lines(path[: -len(".hcl")] + ".oracle.txt", lines)


main()
