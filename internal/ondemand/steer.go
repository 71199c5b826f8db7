package ondemand

import (
	"os"
	"time"

	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/managed"
	"github.com/flowd-dev/flowd/internal/paths"
)

// Steer is paths.SteerEnv for this process, a shim or a hook about to
// find its flowd: it drops the variables SteerEnv ignores before
// anything reads them (the config, the session, the paths of a flowd
// started on demand), says on logf what it ignored, and returns the
// socket to use (flag when given) and why that flowd may not be the
// user's ("" when it is), where the caller must not pass anything
// unchecked.
func Steer(flag string, logf func(string)) (socket, steered string) {
	s := paths.SteerEnv(paths.EnvGiven{
		Getenv: os.Getenv, SocketFlag: flag != "",
		OwnSockets: paths.OwnSockets(), OwnDataDir: paths.OwnDataDir(), OwnConfig: paths.OwnConfigFile(),
		OwnFlowd: func(s []string) (string, bool) { return localsock.Find(s, time.Second) },
		Lowers:   func(p string) []string { return managed.Lowers(p, paths.OwnConfigFile()) },
	})
	for _, v := range s.Unset {
		os.Unsetenv(v)
	}
	for _, n := range s.Notes {
		logf(n)
	}
	if s.Steered != "" {
		logf(s.Steered)
	}
	switch {
	case flag != "":
		return flag, s.Steered
	case s.Socket != "":
		return s.Socket, s.Steered
	}
	return localsock.Locate(), s.Steered
}
