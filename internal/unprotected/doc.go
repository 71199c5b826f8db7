// Package unprotected records the shims that pass messages without flowd's
// checks (fail_mode "open" while flowd cannot be reached), so that `flowd
// status` and `flowd doctor` can say so: such a shim is, by definition,
// one flowd cannot see.
//
// Each such shim keeps a small file named after its pid in a directory of
// the user's (Dir) while it runs unprotected, and removes it when flowd is
// back or the shim exits. A file whose process is gone is stale and List
// removes it.
package unprotected
