#!/usr/bin/env bash
# The GitHub Action's two steps (action.yml), runnable on any machine with bash and curl:
#
#   scripts/lembas-action.sh install   # the pinned release into $LEMBAS_DIR, its sum checked
#   scripts/lembas-action.sh check     # spec verify, smoke, run (JUnit + summary), diff
#
# Inputs come as the Action passes them, in the environment: LEMBAS_VERSION (X.Y.Z),
# LEMBAS_IMPL (the adapter command; required), LEMBAS_EXPECT, LEMBAS_FEATURES (true/false),
# LEMBAS_DIFF_WITH, LEMBAS_JUNIT (file), LEMBAS_SUMMARY (true/false), LEMBAS_SPEC (the project's
# vendored spec directory). LEMBAS_RELEASE_URL is where releases are (default GitHub's; .ci/run
# gives file://DIR of a local build). The exit status is the worst of the steps': 0 ok, 1 a
# failure found, 2 not made or not finished.
set -uo pipefail

release_url=${LEMBAS_RELEASE_URL:-https://github.com/LLeMbas/lembas-check/releases/download/v${LEMBAS_VERSION:-}}
dir=${LEMBAS_DIR:-${RUNNER_TOOL_CACHE:-$HOME/.cache}/lembas-check/${LEMBAS_VERSION:-}}

die() { echo "lembas-action: $*" >&2; exit 2; }

install() {
  [ -n "${LEMBAS_VERSION:-}" ] || die "no version: set the Action's version input (X.Y.Z), or use it at a tag"
  local os arch ext
  case "$(uname -s)" in Linux) os=linux;; Darwin) os=darwin;; MINGW*|MSYS*|CYGWIN*) os=windows;; *) die "no release for $(uname -s)";; esac
  case "$(uname -m)" in x86_64|amd64) arch=amd64;; arm64|aarch64) arch=arm64;; *) die "no release for $(uname -m)";; esac
  ext=tar.gz; [ "$os" = windows ] && ext=zip
  local name="lembas-check_${LEMBAS_VERSION}_${os}_${arch}.${ext}" tmp
  tmp=$(mktemp -d)
  curl -fsSL -o "$tmp/$name" "$release_url/$name" || die "cannot download $release_url/$name"
  curl -fsSL -o "$tmp/SHA256SUMS" "$release_url/SHA256SUMS" || die "cannot download $release_url/SHA256SUMS"
  local want got
  want=$(awk -v n="$name" '$2 == n {print $1}' "$tmp/SHA256SUMS")
  got=$( (sha256sum "$tmp/$name" 2>/dev/null || shasum -a 256 "$tmp/$name") | awk '{print $1}')
  [ -n "$want" ] && [ "$want" = "$got" ] || die "$name: SHA-256 $got, SHA256SUMS says ${want:-nothing}"
  mkdir -p "$dir"
  if [ "$ext" = zip ]; then unzip -oq "$tmp/$name" -d "$dir"; else tar -xzf "$tmp/$name" -C "$dir"; fi
  rm -rf "$tmp"
  "$dir/lembas-check" version || die "the installed lembas-check does not start"
}

worst=0
note() { [ "$1" -gt "$worst" ] && worst=$1; return 0; }

# summary appends a command's markdown to the step summary (each under its budget, issue 26).
summary() {
  [ "${LEMBAS_SUMMARY:-true}" = true ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ] || return 0
  lembas-check "$@" --format markdown >> "$GITHUB_STEP_SUMMARY"
}

check() {
  [ -n "${LEMBAS_IMPL:-}" ] || die "the impl input is empty: give the adapter command"
  local junit=${LEMBAS_JUNIT:-lembas-check.xml} opts=()
  [ -n "${LEMBAS_EXPECT:-}" ] && opts+=(--expect "$LEMBAS_EXPECT")
  [ "${LEMBAS_FEATURES:-false}" = true ] && opts+=(--features)
  export LEMBAS_CHECK_FULL_REPORT="$junit"
  if [ -n "${LEMBAS_SPEC:-}" ]; then
    # --allow-extra: a project vendors the whole spec, more files than the seed lembas-check pins.
    echo "== lembas-check spec verify $LEMBAS_SPEC"; lembas-check spec verify "$LEMBAS_SPEC" --allow-extra; note $?
  fi
  echo "== lembas-check smoke"; lembas-check smoke --impl "$LEMBAS_IMPL"; local rc=$?
  if [ "$rc" -ne 0 ]; then note "$rc"; echo "lembas-action: the adapter failed smoke: run is not made" >&2; exit "$worst"; fi
  echo "== lembas-check run"
  lembas-check run --impl "$LEMBAS_IMPL" "${opts[@]}" --format junit --out "$junit"; note $?
  summary run --impl "$LEMBAS_IMPL" "${opts[@]}"
  if [ -n "${LEMBAS_DIFF_WITH:-}" ]; then
    echo "== lembas-check diff"; lembas-check diff --a "$LEMBAS_IMPL" --b "$LEMBAS_DIFF_WITH"; note $?
    summary diff --a "$LEMBAS_IMPL" --b "$LEMBAS_DIFF_WITH"
  fi
  exit "$worst"
}

case "${1:-}" in
  install) install;;
  check) check;;
  *) die "usage: $0 install|check";;
esac
