package cputime

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClocksAdvanceWithWork(t *testing.T) {
	c, unlock := Lock()
	defer unlock()
	p0, t0 := Process(), c.Now()
	x := 0
	for i := range 50_000_000 {
		x += i % 7
	}
	runtime.KeepAlive(x)
	assert.Greater(t, c.Now(), t0, c.Name())
	if runtime.GOOS != "windows" {
		assert.Greater(t, Process(), p0)
	}
}
