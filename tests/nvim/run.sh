#!/usr/bin/env bash
# Runs `halite lsp` under a real editor's client: Neovim's built-in LSP
# client, headless, on a copy of test-data/lsp/workspace. The Lua script
# (lsp.lua) opens main.tf, waits for diagnostics, asks for quick fixes,
# signature help and semantic tokens, hovers, jumps to a definition,
# renames a local and formats the file, asserting each result.
#
# Usage: tests/nvim/run.sh [HALITE_BINARY]   (default: target/debug/halite)
# Exits 0 and says so when Neovim is not installed; needs Neovim 0.7 or
# later (it uses only the client API 0.7 has).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
halite=${1:-${CARGO_TARGET_DIR:-$repo/target}/debug/halite}

if ! command -v nvim >/dev/null; then
  echo "nvim-lsp: skipped: Neovim is not installed"
  exit 0
fi
if [ ! -x "$halite" ]; then
  echo "nvim-lsp: no halite binary at $halite (build it first)" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$repo/test-data/lsp/workspace" "$work/workspace"

log="$work/nvim.log"
if HALITE_BIN="$halite" HALITE_ROOT="$work/workspace" \
  timeout 120 nvim --headless --clean -n -u NONE -c "luafile $here/lsp.lua" >"$log" 2>&1; then
  cat "$log"
  echo "nvim-lsp: $(nvim --version | head -1): 1 passed, 0 failed"
else
  cat "$log"
  echo "nvim-lsp: $(nvim --version | head -1): 0 passed, 1 failed"
  exit 1
fi
