package service

import (
	"os"

	"github.com/flowd-dev/flowd/internal/paths"
)

// What started a running flowd (StartedBy).
const (
	BySystemd  = "systemd"
	ByLaunchd  = "launchd"
	ByWindows  = "windows service"
	ByOnDemand = "on demand"
	ByHand     = "by hand"
)

// StartedBy says what started this process, from what each starter
// leaves in its environment: a shim or flowd start (ondemand sets
// paths.EnvStartedBy), systemd (a Type=notify unit gets NOTIFY_SOCKET,
// and every unit an INVOCATION_ID; a shell in a terminal that systemd
// started inherits the ID but not the socket), launchd (XPC_SERVICE_NAME
// is the job's label, flowd's Name), the Windows service manager
// (service is true); else a person ran flowd run.
func StartedBy(getenv func(string) string, service bool) string {
	switch {
	case getenv(paths.EnvStartedBy) == paths.StartedOnDemand:
		return ByOnDemand
	case service:
		return ByWindows
	case getenv("NOTIFY_SOCKET") != "" && getenv("INVOCATION_ID") != "":
		return BySystemd
	case getenv("XPC_SERVICE_NAME") == Name:
		return ByLaunchd
	}
	return ByHand
}

// Started is StartedBy for this process.
func Started() string { return StartedBy(os.Getenv, underManager()) }
