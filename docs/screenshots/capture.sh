#!/usr/bin/env bash
# Capture a command's screen in an 80-column terminal (tmux), as a newcomer sees it.
# usage: docs/screenshots/capture.sh OUT.txt COMMAND...   e.g.
#   docs/screenshots/capture.sh docs/screenshots/after-status.txt filegram --home demo-out/persona-home status
set -euo pipefail
out=$1; shift
session="fgcap$$"
tmux() { command tmux -L "$session" "$@"; }  # a server of its own: no race with other captures
printf -v cmd '%q ' "$@"
tmux new-session -d -s "$session" -x 80 -y 300 "$cmd; echo; echo \"[exit \$?]\"; sleep 60"
for _ in $(seq 1 300); do
  tmux capture-pane -p -t "$session" -S 0 -E 299 | grep -q '^\[exit ' && break
  sleep 0.1
done
tmux capture-pane -p -t "$session" -S 0 -E 299 | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' > "$out"
tmux kill-server
