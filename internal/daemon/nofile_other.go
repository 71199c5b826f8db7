//go:build !unix

package daemon

// raiseOpenFiles: Windows has no per-process descriptor limit to raise;
// flowd then keeps the default bound on waiting connections.
func raiseOpenFiles() (uint64, error) { return 0, nil }
