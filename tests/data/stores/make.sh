#!/usr/bin/env bash
# The old stores of tests/data/stores/, each made by the project's own code as
# it was when its schema was the newest: that commit's tree (git archive), run
# with this checkout's .venv, in a scratch data folder. Run from anywhere:
#   tests/data/stores/make.sh [VERSION…]   (rewrites schema-VERSION.sqlite3; all: 1 … 4)
# Each store holds a finished classic game (names or seats), one killed half-way
# (unfinished), and what its schema has besides: undone inputs (2+), a city game
# (2+), a merged player and extra points (3+), the box's UUID and a game marked
# sent (4). The committed files are the proof; this script says how they were made.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
py="$root/.venv/bin/python"
out="$root/tests/data/stores"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export HOST_DEVICE_DATA="$scratch/data" HOME="$scratch/home" PYTHONDONTWRITEBYTECODE=1
mkdir -p "$HOME"

old() {  # COMMIT: that commit's tree in $scratch/COMMIT, its path printed
    local tree="$scratch/$1"
    if [ ! -d "$tree" ]; then
        mkdir -p "$tree"
        git -C "$root" archive "$1" | tar -x -C "$tree"
    fi
    echo "$tree"
}

make_store() {  # VERSION COMMIT
    local version=$1 tree store
    tree="$(old "$2")"
    store="$scratch/schema-$version.sqlite3"
    rm -f "$store" "$store-wal" "$store-shm"
    hd() { (cd "$tree" && PYTHONPATH="$tree" "$py" -m host_device "$@"); }
    api() { (cd "$tree" && PYTHONPATH="$tree" "$py" -c "$1" "$store"); }
    hd simulate examples/classic-full-game.json --store "$store" > /dev/null  # game 1: finished
    hd simulate examples/classic-full-game.json --store "$store" --die-after 30 > /dev/null 2>&1 || true  # game 2
    if [ "$version" -ge 2 ]; then
        hd simulate examples/city-game.json --store "$store" > /dev/null  # game 3: a city game
        api "import sys; from pathlib import Path; from host_device.store import Store
s = Store(Path(sys.argv[1])); assert s.undo(2, 27) == 3; s.close()"  # game 2's last 3 inputs undone
    fi
    if [ "$version" -le 2 ]; then  # names, per game (JSON): one name in two cases, one name at two seats
        hd games name 1 3 "Аня" --store "$store"
        hd games name 1 5 "Борис  Петров" --store "$store"
        hd games name 2 3 "аня" --store "$store"
        hd games name 2 7 "Вера" --store "$store"
        hd games name 2 8 "Вера" --store "$store"
    else  # the roster: seats, a nickname, a merge, extra points
        hd players add "Аня" --nickname "Лиса" --store "$store" > /dev/null
        hd players add "Борис Петров" --store "$store" > /dev/null
        hd players add "Боря" --store "$store" > /dev/null
        hd games seat 1 3 "Аня" --store "$store" > /dev/null
        hd games seat 1 5 "Борис Петров" --store "$store" > /dev/null
        hd games seat 2 5 "Боря" --store "$store" > /dev/null
        hd games seat 2 7 "Вера" --store "$store" > /dev/null
        hd players merge "Борис Петров" "Боря" --store "$store" > /dev/null
        api "import sys; from pathlib import Path; from host_device.store import Store
s = Store(Path(sys.argv[1])); s.set_extra(1, 3, 0.5); s.set_extra(1, 5, -0.3); s.close()"
    fi
    if [ "$version" -ge 4 ]; then
        api "import sys; from pathlib import Path; from host_device.store import Store
s = Store(Path(sys.argv[1])); s.mark_sent(1, s.content_digest(1)); s.close()"
    fi
    "$py" -c "import sqlite3, sys; assert sqlite3.connect(sys.argv[1]).execute('PRAGMA user_version').fetchone()[0] == $version" "$store"
    [ ! -e "$store-wal" ]  # the old code's last close folded its log into the file
    cp "$store" "$out/schema-$version.sqlite3"
    echo "schema-$version.sqlite3: made by $2"
}

commit_of() {  # VERSION: the commit whose own code makes that store
    case $1 in
        1) echo 33292bc ;;  # the last commit of schema 1 (5ae5a5c^): games.names, no undo
        2) echo f050f83^ ;;  # the last of schema 2: inputs.undone
        3) echo ecc4f38^ ;;  # the last of schema 3: players, seats, extras
        4) echo dcb10cd ;;  # schema 4 as issue 36 found it: game and box UUIDs, the outbox
        *) echo "no commit known for schema $1" >&2; exit 2 ;;
    esac
}
for version in "${@:-1 2 3 4}"; do
    for v in $version; do
        commit="$(commit_of "$v")"
        make_store "$v" "$commit"
    done
done
