//go:build unix && !linux

package shim

import "syscall"

// childAttr: without a parent-death signal the upstream is only guarded by
// the signals the shim forwards and by stdin EOF when the shim exits.
func childAttr() *syscall.SysProcAttr { return nil }
