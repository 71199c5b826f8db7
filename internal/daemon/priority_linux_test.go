package daemon

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// The background work runs on a thread at nice 19.
func TestBackgroundRunsAtNice19(t *testing.T) {
	var b background
	prio := make(chan int, 1)
	b.add(func() {
		p, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
		require.NoError(t, err)
		prio <- p
	})
	b.close()
	assert.Equal(t, 20-19, <-prio, "getpriority(2) reports 20 - nice")
}
