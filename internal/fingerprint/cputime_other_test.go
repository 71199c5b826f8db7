//go:build !linux

package fingerprint

import "time"

const clockName = "wall time"

func clock() (func() time.Duration, func()) {
	start := time.Now()
	return func() time.Duration { return time.Since(start) }, func() {}
}
