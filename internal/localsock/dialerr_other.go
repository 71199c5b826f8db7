//go:build !windows

package localsock

// dialError: here the kernel's errno already is syscall.ECONNREFUSED or
// syscall.ENOENT when nobody listens.
func dialError(err error) error { return err }
