package budget

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestWorkLimit(t *testing.T) {
	b := Work(100)
	assert.True(t, b.Spend(60))
	assert.True(t, b.Spend(40))
	assert.False(t, b.Spend(1), "past the limit")
	assert.True(t, b.Exhausted())
	assert.False(t, b.Spend(0), "stays out")
	assert.EqualValues(t, 101, b.Spent())
}

func TestDeadline(t *testing.T) {
	past := Until(time.Now().Add(-time.Second))
	assert.True(t, past.Spend(1), "the clock is read only every clockEvery units")
	assert.False(t, past.Spend(clockEvery))
	assert.True(t, past.Exhausted())

	future := Until(time.Now().Add(time.Hour))
	assert.True(t, future.Spend(10*clockEvery))
	assert.False(t, future.Exhausted())

	assert.True(t, Until(time.Now().Add(-time.Second)).Exhausted(), "Exhausted reads the clock")
}

func TestNilIsUnlimited(t *testing.T) {
	var b *Budget
	assert.True(t, b.Spend(1<<40))
	assert.False(t, b.Exhausted())
	assert.Zero(t, b.Spent())
}
