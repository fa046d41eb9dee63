#!/usr/bin/env bash
# toolgate's resident hook client (docs/resident-hook.md), what `toolgate install <host> --resident` writes:
#   bash <dist>/hook/toolgate-hook.sh <node> hook <host> [event] < event.json
# It hands the event to the resident hook server of this user and install (~/.toolgate/run/hook-<install>.server)
# and prints its answer. Without a server that answers (none yet, a stale or crashed one, a wrong token), it runs the
# Node hook beside it on the same event, which answers and then starts a server for the next events. So a missing
# server costs time, never a decision. TOOLGATE_HOOK_SERVER=off: always the Node hook.
# Exit codes: the hook's own (0 answered, 1 a non-blocking error, 2 blocked); 2 without a node to fall back to.
node=$1
shift
if [ -z "$node" ]; then
  echo "toolgate hook: usage: bash toolgate-hook.sh <node> hook <host> [event] < event.json" >&2
  exit 2
fi
# a node that cannot be started blocks (exit 2), as a hook that cannot run must
shopt -s execfail
# a server that closes the connection while the request is still being written (a wrong token) must not kill this
# process with SIGPIPE (a hook killed by a signal lets the call through on some hosts): the write fails instead, and
# the Node hook answers
trap '' PIPE
here=${BASH_SOURCE[0]%/*}
[ "$here" = "${BASH_SOURCE[0]}" ] && here=.
entry=$here/toolgate-hook.cjs

# the event: stdin whole; a pipe or a file without a process (bash 5.2), a socket (what Node hosts give) through cat;
# a terminal gives none
if [ -t 0 ]; then
  input=
elif [ -p /dev/stdin ] || [ -f /dev/stdin ]; then
  input=$(</dev/stdin)
else
  input=$(cat)
fi

node_hook() {
  if [ -n "$stuck" ]; then
    TOOLGATE_HOOK_SERVER_FILE=$server_file TOOLGATE_HOOK_SERVER_STUCK=$stuck exec "$node" "$entry" "$@" <<<"$input"
  elif [ -n "$server_file" ]; then
    TOOLGATE_HOOK_SERVER_FILE=$server_file exec "$node" "$entry" "$@" <<<"$input"
  else
    exec "$node" "$entry" "$@" <<<"$input"
  fi
  echo "toolgate hook: could not run $node $entry; the call is blocked. Reinstall toolgate, then run \`toolgate doctor\`." >&2
  exit 2
}

# byte counts, whatever the locale (the caller's LC_ALL is left as it was for the Node hook)
input_bytes() {
  local LC_ALL=C
  bytes=${#input}
}
read_bytes() {
  local LC_ALL=C
  IFS= read -r -t 5 -N "$2" "$1" <&3
}

server_file= stuck=
# only hook events go to the server (`--version`, `--drain`: the Node hook itself)
[ "${1:-}" = hook ] || node_hook "$@"
if [ "${TOOLGATE_HOOK_SERVER:-}" = off ] || [ -z "${HOME:-}" ] || [ "${BASH_VERSINFO[0]:-0}" -lt 4 ]; then
  node_hook "$@"
fi
# the install's name: its path with each byte but ASCII letters and digits made `_`, the last 120 kept; bytes, so
# hosts run under different locales reach the same server (and `toolgate uninstall` finds it: residentServerFile)
install_name() {
  local LC_ALL=C
  install=${here//[^A-Za-z0-9]/_}
  ((${#install} > 120)) && install=${install:${#install}-120}
}
install_name
server_file=$HOME/.toolgate/run/hook-$install.server

port= token= pid=
# only a file of this user's own: another user who could write into the folder cannot point the event (and the
# environment sent with it) at a server of theirs, nor answer for toolgate
[ -O "$server_file" ] && [ -r "$server_file" ] && read -r port token pid _ <"$server_file"
case $port in '' | *[!0-9]*) node_hook "$@" ;; esac

# the environment the host gave this process, as the Node hook would see it
environment=()
if [ -r /proc/self/environ ]; then
  while IFS= read -r -d '' entry_text; do environment+=("$entry_text"); done </proc/self/environ
else
  for name in $(compgen -e); do environment+=("$name=${!name}"); done
fi

{ exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || node_hook "$@"
input_bytes
{
  printf 'toolgate-hook/1 %s %s\n' "$token" "$bytes"
  printf '%s\0' "$PPID" "$PWD" "$#" "$@" "${environment[@]}" ""
  printf '%s' "$input"
} >&3 2>/dev/null || node_hook "$@"

# the answer: `<exit code> <stdout bytes> <stderr bytes>`, then both texts; anything else: the Node hook answers.
# The server answers within its 4 s budget; 10 s without an answer leaves the Node hook time to answer before the
# host's own hook timeout (30 s as installed), which some hosts treat as a non-blocking error
IFS=' ' read -r -t 10 code out_bytes err_bytes <&3
status=$?
if ((status != 0)); then
  # no answer within 10 s (a status past 128): a server that took the event and hangs; the Node hook answers, and
  # stops it (its pid, once checked). A connection the server closed (a wrong token, a changed install, a request
  # too large) is no hang: the Node hook answers and that server is left as it is
  ((status > 128)) && stuck=$pid
  node_hook "$@"
fi
case "$code:$out_bytes:$err_bytes" in *[!0-9:]* | :* | *::* | *:) node_hook "$@" ;; esac
out= err=
if ((out_bytes > 0)); then read_bytes out "$out_bytes" || node_hook "$@"; fi
if ((err_bytes > 0)); then read_bytes err "$err_bytes"; fi
exec 3<&-
printf '%s' "$out"
[ -n "$err" ] && printf '%s' "$err" >&2
exit "$code"
