package daemon

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A shim connection's loop says Alive while it works on a frame, however
// long that takes, and stops saying it once it waits for frames again.
func TestHeartbeatWhileWorking(t *testing.T) {
	beats := make(chan struct{}, 100)
	hb := newHeartbeat(time.Millisecond, func() error {
		beats <- struct{}{}
		return nil
	})
	defer hb.stop()
	hb.working()
	for range 3 {
		<-beats
	}
	hb.idle()
	// The beat in flight, if any, is the last: the timer is disarmed at
	// the first tick that finds the loop idle, and re-armed by working.
	hb.working()
	<-beats
	hb.idle()
}

func TestAliveEveryIsWithinTheVerdictTimeout(t *testing.T) {
	for _, vt := range []time.Duration{time.Millisecond, 40 * time.Millisecond, time.Second, time.Minute} {
		a := aliveEvery(vt)
		assert.Positive(t, a)
		assert.LessOrEqual(t, a, max(time.Millisecond, vt/4), "verdict timeout %v", vt)
		assert.LessOrEqual(t, a, 100*time.Millisecond)
	}
}
