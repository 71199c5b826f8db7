// Package service installs flowd as an OS service and controls it: a
// systemd unit with a socket unit on Linux (per user by default, or
// system-wide), a launchd agent on macOS, a Windows service. It renders the
// templates of the installers package, hands the service file to
// github.com/kardianos/service, which knows each platform's commands, and
// adds what that library does not cover: the systemd socket unit, the
// system account, the "enabled" state, and installing twice as a no-op.
package service
