#!/usr/bin/env bash
# Fuzz coverage: replays each fuzz target's corpus (fuzz/corpus/<target>, the
# inputs kept by earlier runs, plus the built seeds fuzz/seeds/<target> from
# scripts/fuzz-corpus.sh) under `cargo fuzz coverage` (source-based coverage,
# -C instrument-coverage), merges the profiles of all targets and prints an
# llvm-cov line-coverage table of the decoder, framer, session and notation
# modules (MODULES below), each file's lines reached by the union of all
# targets' corpora, then per target the listed modules it reaches and how
# many of their lines, as Markdown tables for docs/TESTING.md
# (coverage/per-target.tsv has the per-file detail).
#
# Usage: scripts/fuzz-coverage.sh [TARGET...]   (default: every target)
# Needs: cargo-fuzz, the llvm-tools-preview rustup component (llvm-profdata,
# llvm-cov of the toolchain's own LLVM). `cargo fuzz coverage` passes
# unstable flags, so RUSTC_BOOTSTRAP=1 is set for the stable toolchain.
# Output: fuzz/coverage/<target>/coverage.profdata per target,
# fuzz/coverage/all.profdata, fuzz/coverage/report.md (also printed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/fuzz"

# The modules issue 29 sets the 90 % goal for: decoders, framers, sessions
# (the protocol crates) and the notation parsers of board-core.
MODULES='(damexchange|csa-protocol|novag-citrine|boardwire-proto)/src/(decode|parse|framer|codec|convert|kifu|position|message/[^/]*|session/[^/]*|session)\.rs|board-core/src/(chess/(fen|uci|san|setup|legality|movegen)|shogi/(sfen|usi|csa|legality|movegen)|draughts/[^/]*)\.rs'

sysroot="$(rustc --print sysroot)"
host="$(rustc -vV | sed -n 's/^host: //p')"
bin="$sysroot/lib/rustlib/$host/bin"
if [ ! -x "$bin/llvm-cov" ]; then
    echo "fuzz-coverage.sh: llvm-cov missing; run: rustup component add llvm-tools-preview" >&2
    exit 1
fi

if [ $# -gt 0 ]; then
    targets=("$@")
else
    targets=()
    for f in fuzz_targets/*.rs; do
        t="${f##*/}"
        targets+=("${t%.rs}")
    done
fi
# The seeds are cheap and deterministic: always rebuilt from the data.
../scripts/fuzz-corpus.sh seeds >/dev/null

export RUSTC_BOOTSTRAP=1
objects=()
profiles=()
mkdir -p coverage
: >coverage/per-target.tsv.new
for t in "${targets[@]}"; do
    dirs=()
    [ -d "corpus/$t" ] && dirs+=("corpus/$t")
    [ -d "seeds/$t" ] && dirs+=("seeds/$t")
    if [ ${#dirs[@]} -eq 0 ]; then
        echo "fuzz-coverage.sh: $t has no corpus, skipped" >&2
        continue
    fi
    # cargo fuzz coverage replays every input (a crash ends the replay of
    # that directory, so the corpus must be crash-free).
    cargo fuzz coverage "$t" "${dirs[@]}" >/dev/null 2>"coverage/$t.log" || {
        echo "fuzz-coverage.sh: cargo fuzz coverage $t failed; see fuzz/coverage/$t.log" >&2
        exit 1
    }
    rm -f "coverage/$t.log"
    # cargo fuzz coverage builds into target/<host>/coverage (it does not
    # use CARGO_TARGET_DIR: the instrumented build never mixes with others).
    obj="target/$host/coverage/$host/release/$t"
    objects+=("$obj")
    profiles+=("coverage/$t/coverage.profdata")
    # Per target: the listed modules it reaches at all.
    "$bin/llvm-cov" report "$obj" -instr-profile="coverage/$t/coverage.profdata" \
        -ignore-filename-regex='(\.cargo|rustc|/fuzz/)' 2>/dev/null |
        awk -v t="$t" -v m="$MODULES" -v root="$root/" '
            $1 ~ m && $8 - $9 > 0 { f = $1; sub(root, "", f); printf "%s\t%s\t%d\t%d\n", t, f, $8 - $9, $8 }' \
            >>"coverage/per-target.tsv.new"
done
mv coverage/per-target.tsv.new coverage/per-target.tsv
"$bin/llvm-profdata" merge -sparse "${profiles[@]}" -o coverage/all.profdata
args=("${objects[0]}")
for o in "${objects[@]:1}"; do args+=(-object "$o"); done

{
    echo "| module | lines | missed | line coverage |"
    echo "|---|---:|---:|---:|"
    "$bin/llvm-cov" report "${args[@]}" -instr-profile=coverage/all.profdata \
        -ignore-filename-regex='(\.cargo|rustc|/fuzz/)' 2>/dev/null |
        awk -v m="$MODULES" -v root="$root/" '
            $1 ~ m { f = $1; sub(root, "", f); printf "| `%s` | %s | %s | %s |\n", f, $8, $9, $10 }'
    echo
    echo "| target | listed modules reached | their lines | lines covered |"
    echo "|---|---:|---:|---:|"
    awk -F '\t' '{ n[$1]++; c[$1] += $3; l[$1] += $4 }
        END { for (t in n) printf "| `%s` | %d | %d | %d (%.1f%%) |\n", t, n[t], l[t], c[t], 100 * c[t] / l[t] }' \
        coverage/per-target.tsv | sort
} | tee coverage/report.md
