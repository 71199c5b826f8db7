//go:build !linux

package daemon

// lowerPriority does nothing here: only Linux sets the priority of one
// thread.
func lowerPriority() {}
