#!/bin/sh
# Reverses install.sh: removes flowd's service, then the three binaries.
# The data directory (the activity log) stays unless --purge is given.
# Running it again when nothing is left changes nothing.
#
#   installers/uninstall.sh [--prefix DIR] [--purge] [--no-service]
#
#   --prefix DIR   where install.sh put the binaries (default: $PREFIX,
#                  else ~/.local/bin)
#   --purge        also remove flowd's data directory
#   --no-service   only remove the binaries (install.sh --no-service)
set -eu

prefix=${PREFIX:-$HOME/.local/bin}
purge=
service=yes
while [ $# -gt 0 ]; do
	case $1 in
	--prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
	--purge) purge=--purge; shift ;;
	--no-service) service=no; shift ;;
	-h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "uninstall.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done

say() { printf 'uninstall.sh: %s\n' "$*"; }

if [ "$service" = yes ] && [ -x "$prefix/flowd" ]; then
	# shellcheck disable=SC2086 # $purge is one flag or nothing
	"$prefix/flowd" uninstall $purge
fi
for b in shim flowd hook; do
	if [ -e "$prefix/$b" ]; then
		rm -f "$prefix/$b"
		say "removed $prefix/$b"
	fi
done
say "done"
