#!/usr/bin/env bash
# The test halite_test writes (see halite.bzl): copies the declared inputs
# into a fresh workspace under $TEST_TMPDIR, marks its root as a
# repository's, and runs `halite check` there.
set -euo pipefail

# Bazel starts a test in the main repository's runfiles, where each input
# is at its short path (an external repository's under ../NAME/).
runfiles="$PWD"
halite="$runfiles/@@HALITE@@"

work="$TEST_TMPDIR/workspace"
rm -rf "$work"
mkdir -p "$work/.git"   # the root: no halite.toml above it applies
while IFS= read -r file; do
  [ -n "$file" ] || continue
  mkdir -p "$work/$(dirname "$file")"
  cp "$runfiles/$file" "$work/$file"
done < "$runfiles/@@MANIFEST@@"

shard=()
if [ -n "${TEST_TOTAL_SHARDS:-}" ]; then
  # Bazel asks a sharded test to say that it shards.
  [ -n "${TEST_SHARD_STATUS_FILE:-}" ] && touch "$TEST_SHARD_STATUS_FILE"
  shard=(--shard "$((TEST_SHARD_INDEX + 1))/$TEST_TOTAL_SHARDS")
fi

cd "$work"
# A JUnit report lands where Bazel collects test results.
if [ -n "${XML_OUTPUT_FILE:-}" ]; then
  "$halite" check --quiet --format junit --output-file "$XML_OUTPUT_FILE" "${shard[@]}" . || true
fi
exec "$halite" check @@ARGS@@ "${shard[@]}" .
