#!/bin/sh
# bench-llama.sh URL [RUNS] [CONCURRENCY] [REC]: `lembas-check bench` (built from this tree) RUNS
# times (5) against the llama-server at URL, CONCURRENCY (4) sessions of REC
# (testdata/recordings/interleaved.jsonl) at once, and per run the requests, the answered ones,
# those compared with the prediction and those predicted exactly (docs/bench.md, "Measured:
# sessions at once on one slot"). It starts no server: start llama-server as docs/bench.md says.
# Exit 1 when fewer than 99 % of the answered requests were predicted exactly, 2 when a run was
# not made. Needs jq.
set -u
[ $# -ge 1 ] || { echo "usage: $0 URL [RUNS] [CONCURRENCY] [REC]" >&2; exit 2; }
url=$1 runs=${2:-5} conc=${3:-4}
cd "$(dirname "$0")/.." || exit 2
rec=${4:-testdata/recordings/interleaved.jsonl}
command -v jq >/dev/null || { echo "$0: needs jq" >&2; exit 2; }
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/lembas-check" ./cmd/lembas-check || exit 2
echo "run requests answered compared exact off not_predicted"
i=1 answered=0 exact=0
while [ "$i" -le "$runs" ]; do
	"$dir/lembas-check" bench "$rec" --server "$url" --concurrency "$conc" --format json \
		--out "$dir/run$i.json" >"$dir/log$i" 2>&1
	[ -s "$dir/run$i.json" ] || { cat "$dir/log$i" >&2; exit 2; }
	line=$(jq -r 'select(.type == "run") | .totals |
		[.requests, .requests - .errors, .compared, .exact, .compared - .exact, .requests - .errors - .compared] |
		@tsv' "$dir/run$i.json" | head -1)
	[ -n "$line" ] || exit 2
	echo "$i $line" | tr '\t' ' '
	set -- $line
	answered=$((answered + $2)) exact=$((exact + $4))
	i=$((i + 1))
done
echo "exact $exact of $answered answered"
[ "$answered" -gt 0 ] || exit 2
[ $((exact * 100)) -ge $((answered * 99)) ] || exit 1
