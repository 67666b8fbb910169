#!/bin/sh
# A client of the budget-rules decision service (R-130) in POSIX shell, with curl (7.76 or later).
#
#   DECIDE_URL=http://127.0.0.1:3000 ./decide.sh case.json            # POST /v1/decide
#   DECIDE_URL=... ./decide.sh --batch case.json case.json ...         # POST /v1/decide/batch
#
# Prints the answer's body on stdout. DECIDE_TOKEN, when set, is sent as the bearer token. A
# refusal (HTTP 4xx or 5xx): curl's line and the problem's body on stderr, exit 1.
set -eu

url="${DECIDE_URL:-http://127.0.0.1:3000}"
url="${url%/}"
route=/v1/decide
if [ "${1:-}" = --batch ]; then
  route=/v1/decide/batch
  shift
elif [ $# -ne 1 ]; then
  echo "usage: decide.sh case.json | decide.sh --batch case.json [case.json ...]" >&2
  exit 2
fi
for file in "$@"; do
  [ -r "$file" ] || { echo "decide.sh: cannot read $file" >&2; exit 2; }
done

# The body: the case file as it is, or { "cases": [ ...the files... ] }.
body() {
  if [ "$route" = /v1/decide ]; then
    cat "$1"
  else
    printf '{"cases":['
    sep=''
    for file in "$@"; do
      printf '%s' "$sep"
      cat "$file"
      sep=','
    done
    printf ']}'
  fi
}

# The token in a curl config read from file descriptor 3 (a here-document), not in curl's arguments.
config=''
[ -z "${DECIDE_TOKEN:-}" ] || config="header = \"Authorization: Bearer $DECIDE_TOKEN\""
if answer=$(body "$@" | curl -sS --fail-with-body -H 'Content-Type: application/json' \
  --data-binary @- -K /dev/fd/3 "$url$route" 3<<CONFIG
$config
CONFIG
); then
  printf '%s\n' "$answer"
else
  [ -z "$answer" ] || printf '%s\n' "$answer" >&2
  exit 1
fi
