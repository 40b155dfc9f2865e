#!/usr/bin/env bash
# The audit's figures in docs/performance.md, each beside its baseline in the same run:
#
#   scripts/bench-audit.sh [REQUESTS...]      (default: 2000 4000)
#   BASELINE=BIN scripts/bench-audit.sh ...   (also time an older lembas-check build, BIN)
#
# For each length it generates the issue's session (internal/cachebench/cmd/gen, 20,000 prompt tokens a
# request on average, seed 1; kept in $TMPDIR between runs), then measures
#   - cat: the file's bytes alone (the page cache's floor);
#   - go test: lines, the file read line by line and nothing done (the floor of any reader of a
#     JSON-lines file: the baseline the others are divided by); read, the replay reader alone,
#     every exchange with its body put back and checked by its SHA-256; incremental, the audit
#     (BenchmarkAuditFile, one process, one after the other);
#   - audit: the real binary, `lembas-check audit FILE`, wall, CPU (user + system) and peak RSS
#     (/usr/bin/time), and BASELINE's beside it when set. The 4,000-request session's peak RSS
#     is compared with the 2,000's.
# Run it under nice on a shared machine, and compare CPU times and ratios, not wall times.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${TMPDIR:-/tmp}/lembas-check-bench-audit
mkdir -p "$dir"
go build -o "$dir/lembas-check" ./cmd/lembas-check
lengths=("$@")
[ ${#lengths[@]} -gt 0 ] || lengths=(2000 4000)
echo "# $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(go version | cut -d' ' -f3)"
printf '%-9s %-28s %10s %10s %10s %12s\n' requests measure wall cpu peak "cpu÷lines"
timed() { # name, then the command: one row from /usr/bin/time
	local name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$dir/run.time" "$@" >"$dir/run.out" 2>/dev/null || true
	read -r w u s rss <"$dir/run.time"
	printf '%-9s %-28s %9ss %9ss %7d MB %11.2f×\n' "$n" "$name" "$w" "$(awk "BEGIN { print $u + $s }")" \
		$((rss / 1024)) "$(awk "BEGIN { print ($u + $s) / $floor }")"
}
for n in "${lengths[@]}"; do
	f=$dir/large-$n.jsonl
	[ -s "$f" ] || go run ./internal/cachebench/cmd/gen -large "$n" -tokens $((n * 20000)) -o "$f"
	/usr/bin/time -f '%e %U %S %M' -o "$dir/cat.time" cat "$f" >/dev/null
	read -r w u s _ <"$dir/cat.time"
	printf '%-9s %-28s %9ss %9ss %10s\n' "$n" "cat (the bytes alone)" "$w" "$(awk "BEGIN { print $u + $s }")" -
	LEMBAS_AUDIT_FILE=$f go test ./internal/cachebench/audit -run '^$' -bench 'AuditFile' -benchtime 1x >"$dir/bench.txt"
	floor=$(awk '/^BenchmarkAuditFile\/lines/ { for (i = 3; i < NF; i++) if ($(i+1) == "s-cpu/audit") print $i }' "$dir/bench.txt")
	awk -v n="$n" -v floor="$floor" '/^BenchmarkAuditFile\// {
		name = $1; sub(/^BenchmarkAuditFile\//, "", name); sub(/-[0-9]+$/, "", name)
		for (i = 3; i < NF; i++) { m[$(i+1)] = $i }
		printf "%-9s %-28s %9.2fs %9.2fs %7.1f MB %11.2f×\n", n, "go test: " name, m["s/audit"], m["s-cpu/audit"],
			m["MB-peak-heap"], m["s-cpu/audit"] / floor
	}' "$dir/bench.txt"
	timed "lembas-check audit (RSS)" "$dir/lembas-check" audit "$f"
	tail -1 "$dir/run.out" | sed 's/^/          /'
	if [ -n "${BASELINE:-}" ]; then
		timed "baseline audit (RSS)" "$BASELINE" audit "$f"
	fi
done
