#!/usr/bin/env bash
# Mutation testing of one crate with cargo-mutants (issue 29), over the
# modules listed in .cargo/mutants.toml. By hand, not in CI (hours per
# crate on 2 cores); CI runs only `cargo mutants --in-diff` on the last change.
#
#   scripts/mutants.sh CRATE [SHARD]      e.g. scripts/mutants.sh damexchange 1/4
#
# Output in target/mutants/CRATE[-k-of-n]/mutants.out (caught.txt,
# missed.txt, timeout.txt, unviable.txt, outcomes.json); then
# scripts/mutants_table.py rewrites the crate's row of docs/TESTING.md from
# every outcomes.json of the crate. Needs `cargo install cargo-mutants --locked`.
set -euo pipefail
cd "$(dirname "$0")/.."
crate=${1:?usage: $0 CRATE [SHARD k/n]}
shard=${2:-}
out=target/mutants/$crate
args=(-p "$crate" --jobs 1 --test-workspace=false)
if [ -n "$shard" ]; then
    out="$out-${shard/\//-of-}"
    args+=(--shard "$shard")
fi
mkdir -p "$out"
status=0
cargo mutants "${args[@]}" --output "$out" "${@:3}" || status=$?
# Exit 2: missed mutants; 3: timeouts. Both are results, not failures.
case $status in 0|2|3) ;; *) echo "cargo mutants failed ($status)" >&2; exit $status ;; esac
python3 scripts/mutants_table.py docs/TESTING.md "$crate" target/mutants
