#!/usr/bin/env python3
"""Makes the reference's output for the JSON decode cases, with the reference
hcldec (HCLDEC, by default ../shared/oracle/bin/hcldec; the files here were
made with an hcldec of HCL v2.24.0) and --diags=json:

- content/NAME.json whose NAME.schema says `content: SCHEMA`: a spec from the
  schema (attributes of type any, block types as block_map with their labels
  or block_list without, each block's body an empty object), its diagnostics
  written sorted as NAME.oracle.txt in the tests' one-line form;
- values/NAME.json: every top-level property as an attribute of type any,
  decoded without variables (the reference's nil context, strings literal:
  NAME.oracle.txt) and with the variables of values/vars.json (strings are
  templates: NAME.oracle-vars.txt); each file holds the decoded object as
  hcldec prints it, then the diagnostics.

Run from the repository root: python3 test-data/decode/json/oracle.py
"""

import json
import os
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
                lines += [
                    f'  block_map "{name}" {{', f"    labels = [{quoted}]", "    object {", "    }", "  }"]
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


def run(cases, name, spec_text, extra=()):
    with tempfile.NamedTemporaryFile("w", suffix=".hcldec", delete=False) as spec:
        spec.write(spec_text)
    result = subprocess.run(
        [HCLDEC, "--spec", spec.name, "--diags=json", *extra, name], cwd=cases, capture_output=True, text=True
    )
    os.unlink(spec.name)
    lines = []
    for out in (result.stderr, result.stdout):
        at = out.find('{\n  "diagnostics"')
        if at >= 0:
            for d in json.loads(out[at:])["diagnostics"]:
                subject = rng(d["subject"]) if d.get("subject") else "-"
                lines.append(f'{d["severity"]}: {d["summary"]} | {d["detail"]} | {subject}')
    value = result.stdout.strip() if '"diagnostics"' not in result.stdout else ""
    return value, sorted(lines)


def write(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))


def main():
    cases = os.path.join(HERE, "content")
    for name in sorted(os.listdir(cases)):
        if not name.endswith(".json"):
            continue
        stem = os.path.join(cases, name[: -len(".json")])
        with open(stem + ".schema", encoding="utf-8") as f:
            directive = f.read().strip()
        if directive.startswith("content:"):
            _, lines = run(cases, name, spec_for(directive[len("content:"):]))
            write(stem + ".oracle.txt", lines)
    values = os.path.join(HERE, "values")
    with open(os.path.join(values, "vars.json"), encoding="utf-8") as f:
        variables = f.read()
    for name in sorted(os.listdir(values)):
        if not name.endswith(".json") or name == "vars.json":
            continue
        stem = os.path.join(values, name[: -len(".json")])
        with open(stem + ".json", encoding="utf-8") as f:
            names = list(json.load(f, object_pairs_hook=lambda pairs: dict(pairs)).keys())
        spec = "object {\n" + "".join(f'  attr {json.dumps(n)} {{\n    type = any\n  }}\n' for n in names) + "}\n"
        for suffix, extra in ((".oracle.txt", ()), (".oracle-vars.txt", ("--vars", variables))):
            value, lines = run(values, name, spec, extra)
            write(stem + suffix, ([value] if value else []) + lines)


main()
