export CARGO_TARGET_DIR=/work/wt-tfeval/target CARGO_PROFILE_DEV_DEBUG=line-tables-only CARGO_INCREMENTAL=0
