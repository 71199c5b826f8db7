package localsock

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/windows"
)

// What net.Dial returns on Windows when a socket file is left and nobody
// listens on it (made by hand: Wine has no AF_UNIX to make it for real).
func winsockDialError(errno syscall.Errno) error {
	return &net.OpError{Op: "dial", Net: "unix", Err: os.NewSyscallError("connect", errno)}
}

func TestDialErrorNobodyListensIsRefused(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		refused bool
	}{
		{"WSAECONNREFUSED", winsockDialError(windows.WSAECONNREFUSED), true},
		{"WSAEAFNOSUPPORT", winsockDialError(windows.WSAEAFNOSUPPORT), false},
		{"WSAEACCES", winsockDialError(windows.WSAEACCES), false},
		{"timeout", winsockDialError(windows.WSAETIMEDOUT), false},
	}
	for _, tt := range tests {
		got := dialError(tt.err)
		assert.Equal(t, tt.refused, errors.Is(got, syscall.ECONNREFUSED), tt.name)
		assert.ErrorIs(t, got, tt.err, "%s: the original error stays reachable", tt.name)
		assert.Equal(t, tt.err.Error(), got.Error(), "%s: the message is Winsock's", tt.name)
	}
}

// Dial hands its error through dialError: a missing socket reads as
// "nobody listens" to the shim whatever Winsock says about it.
func TestDialMissingSocketSaysWhy(t *testing.T) {
	_, err := Dial(filepath.Join(t.TempDir(), "none.sock"), time.Second)
	require.Error(t, err)
	if errors.Is(err, windows.WSAEAFNOSUPPORT) {
		t.Skipf("this Windows (or Wine) has no AF_UNIX sockets: %v", err)
	}
	assert.True(t, errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED), "%v", err)
}
