#!/bin/sh
# fake-rss.sh: the peak RSS of `lembas-check fake` (built from this tree) before and after 6,000
# streamed requests from 64 clients, beside a bare net/http server sending the same bytes, in
# one run (docs/performance.md). Linux only: it reads /proc/PID/status. Exit 1 when the fake's
# peak is 40 MB or more, 2 when it could not measure.
set -u
cd "$(dirname "$0")/.." || exit 2
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/lembas-check" ./cmd/lembas-check || exit 2
LEMBAS_FAKE_BIN="$dir/lembas-check" go test -count=1 -run '^TestRSSAfterLoad$' -v ./fakeprovider >"$dir/out" 2>&1
rc=$?
grep -E 'rss_test|^(ok|FAIL|---)' "$dir/out" || cat "$dir/out"
[ $rc -eq 0 ] || exit 1
