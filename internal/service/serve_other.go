//go:build !windows

package service

import "context"

// Serve runs flowd. systemd and launchd need no handshake beyond what
// flowd does anyway (package systemd), so it just calls run.
func Serve(ctx context.Context, run func(context.Context) error) error { return run(ctx) }

// underManager reports whether the Windows service manager runs flowd:
// never here.
func underManager() bool { return false }
