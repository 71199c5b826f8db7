// Package managed is the machine's managed policy: a config file that an
// administrator owns and that bounds every user's config (config.Merge
// says how, key by key).
//
// Its place is fixed per platform and has no override, neither flag nor
// environment variable: the user, and the agent running as the user,
// control both. A file there is used only when nobody but the
// administrator can have written it: owned by root (on Windows by
// Administrators, SYSTEM or TrustedInstaller) and writable by no one
// else but root's group (and macOS's admin group), as is every directory
// above it. Anything else is refused with an
// error that says what to fix, and every caller then fails safe: flowd
// does not start, and a shim treats flowd as closed.
package managed
