#!/usr/bin/env bash
# Runs `halite dec` as if it were the reference `hcldec`, for the official
# spec suite harness:
#   ../shared/oracle/bin/hclspecsuite ../shared/conformance/specsuite scripts/hcldec-wrapper.sh
# The binary is the one `cargo build` made (target/debug/halite), or $HALITE.
here=$(cd "$(dirname "$0")" && pwd)
exec "${HALITE:-$here/../target/debug/halite}" dec "$@"
