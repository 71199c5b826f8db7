#!/bin/sh
# Installs flowd for the current user: the three binaries (shim, flowd,
# hook) into a directory on PATH, and flowd as the user's service (systemd
# user units on Linux, a launchd agent on macOS; without either, flowd runs
# on demand). Running it again updates what changed and leaves the rest
# alone.
#
#   installers/install.sh [--prefix DIR] [--from DIR] [--no-service]
#
#   --prefix DIR   where the binaries go (default: $PREFIX, else ~/.local/bin)
#   --from DIR     copy prebuilt binaries from DIR instead of building them
#                  with go build (which fetches Go modules, nothing else)
#   --no-service   only install the binaries; a shim then starts flowd on
#                  demand (as it does anyway without systemd or launchd)
set -eu

prefix=${PREFIX:-$HOME/.local/bin}
from=
service=yes
while [ $# -gt 0 ]; do
	case $1 in
	--prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
	--from) from=${2:?--from needs a directory}; shift 2 ;;
	--no-service) service=no; shift ;;
	-h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "install.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done

say() { printf 'install.sh: %s\n' "$*"; }
bins="shim flowd hook"

if [ -z "$from" ]; then
	command -v go >/dev/null 2>&1 || { say "go not found: install Go, or pass --from DIR with prebuilt binaries" >&2; exit 1; }
	repo=$(cd "$(dirname "$0")/.." && pwd)
	from=$(mktemp -d)
	trap 'rm -rf "$from"' EXIT
	say "building $bins from $repo"
	(cd "$repo" && go build -trimpath -o "$from/" ./cmd/shim ./cmd/flowd ./cmd/hook)
fi
for b in $bins; do
	[ -x "$from/$b" ] || { say "$from/$b is missing or not executable" >&2; exit 1; }
done

mkdir -p "$prefix"
for b in $bins; do
	if cmp -s "$from/$b" "$prefix/$b"; then
		say "$prefix/$b is up to date"
		continue
	fi
	# Copy then rename: a running flowd or shim keeps its old file.
	cp "$from/$b" "$prefix/.$b.new"
	chmod 755 "$prefix/.$b.new"
	mv -f "$prefix/.$b.new" "$prefix/$b"
	say "installed $prefix/$b"
done

if [ "$service" = no ]; then
	"$prefix/flowd" version
	say "binaries installed; no service (--no-service): a shim starts flowd when it needs it"
else
	rc=0
	"$prefix/flowd" install --user || rc=$?
	case $rc in
	0)
		# The socket is up at once; flowd itself may take a moment to answer.
		tries=0
		until "$prefix/flowd" status; do
			tries=$((tries + 1))
			if [ "$tries" -ge 10 ]; then
				say "flowd does not answer: see journalctl --user -u flowd (Linux) or ~/Library/Logs/flowd.log (macOS)" >&2
				exit 1
			fi
			sleep 1
		done
		;;
	3) # flowd install: no service manager on this machine
		say "no systemd or launchd here, so no service: flowd runs on demand, started by the first shim that needs it (flowd start starts it now; flowd stop, flowd restart)"
		;;
	*) exit "$rc" ;;
	esac
fi

case ":$PATH:" in
*":$prefix:"*) ;;
*) say "add $prefix to your PATH to use shim, flowd and hook by name" ;;
esac
