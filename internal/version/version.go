// Package version is the version of this flowd build, shared by its three
// binaries so a shim and a daemon can tell they differ.
package version

// Version is overridden at link time: -ldflags "-X github.com/flowd-dev/flowd/internal/version.Version=1.2.3".
var Version = "0.1.0-dev"
