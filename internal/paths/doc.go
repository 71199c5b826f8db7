// Package paths owns where flowd keeps things for a user: the socket that
// shims, hooks and the CLI use to reach the daemon, the data directory, and
// the configuration file. Each honours an environment override
// (FLOWD_SOCKET, FLOWD_DATA_DIR, FLOWD_CONFIG) and otherwise follows the
// platform's convention (XDG on Linux and the BSDs, ~/Library on macOS,
// %LOCALAPPDATA% and %APPDATA% on Windows). A client finds the machine's
// system flowd (SystemSocket) when the user has no flowd of their own.
//
// Every process that must meet at the socket computes its path here, so the
// rules live in one place. Whether a socket's directory may be trusted is
// localsock's to say (EnsureSocketDir, CheckSocketDir, CheckSocketTrust).
package paths
