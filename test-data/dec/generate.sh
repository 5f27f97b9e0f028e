#!/usr/bin/env bash
# Remakes the expected outputs of every case here with the reference hcldec.
#   HCLDEC        the reference (default ../shared/oracle/bin/hcldec)
#   HCLDEC_FIXED  the reference built with "block_attrs" added to the spec
#                 schema's block types (cmd/hcldec/spec.go, specBlockTypes),
#                 used for the cases that have a file named `fixed-reference`
# Each case runs in its own directory as
#   hcldec --spec=spec.hcldec --diags=json ARGS… input*.hcl input*.json
# with ARGS the lines of its `args` file; standard output goes to
# expected.json, standard error to expected-diags.json (kept only when not
# empty). A failing case runs again without --diags=json, its standard
# error (the diagnostics as text) going to expected-text.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
hcldec=${HCLDEC:-$here/../../../shared/oracle/bin/hcldec}
for dir in "$here"/*/; do
  cd "$dir"
  bin=$hcldec
  if [ -e fixed-reference ]; then bin=${HCLDEC_FIXED:?this case needs HCLDEC_FIXED}; fi
  args=()
  if [ -e args ]; then mapfile -t args < args; fi
  inputs=(input*.hcl input*.json)
  inputs=("${inputs[@]/input\*.hcl}"); inputs=("${inputs[@]/input\*.json}")
  status=0
  "$bin" --spec=spec.hcldec --diags=json "${args[@]}" ${inputs[@]} > expected.json 2> expected-diags.json || status=$?
  [ -s expected.json ] || rm expected.json
  [ -s expected-diags.json ] || rm expected-diags.json
  rm -f expected-text.txt
  if [ "$status" != 0 ]; then
    "$bin" --spec=spec.hcldec "${args[@]}" ${inputs[@]} > /dev/null 2> expected-text.txt || true
  fi
  echo "$(basename "$dir"): exit $status"
done
