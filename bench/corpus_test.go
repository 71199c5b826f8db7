package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/secrets"
)

// The secrets the corpus plants must be ones flowd finds, or the secret
// probes measure nothing.
func TestCorpusSecretsAreDetected(t *testing.T) {
	det, err := secrets.Default()
	require.NoError(t, err)
	c := newCorpus(3)
	planted := 0
	for range 200 {
		d := c.config(3000)
		found := map[string]bool{}
		for _, f := range det.Scan(flow.Text(mcpResult(d.text), 1<<20)) {
			found[f.Value] = true
		}
		for _, s := range d.secrets {
			assert.True(t, found[s], "secret %q not detected in:\n%s", s, d.text)
			planted++
		}
	}
	assert.Greater(t, planted, 200)
}

func TestCorpusResults(t *testing.T) {
	c := newCorpus(4)
	kinds := 0
	for range 500 {
		d := c.result()
		assert.GreaterOrEqual(t, len(d.text), 2000)
		assert.Less(t, len(d.text), 4300)
		if len(d.secrets) > 0 {
			kinds++
		}
		var v any
		require.NoError(t, json.Unmarshal(mcpResult(d.text), &v))
	}
	assert.InDelta(t, 50, kinds, 25, "about one result in ten holds secrets")
	assert.Equal(t, newCorpus(9).result(), newCorpus(9).result(), "a seed gives the same corpus")
}

func TestOutgoingCarriesThePlant(t *testing.T) {
	c := newCorpus(5)
	d := c.config(3000)
	copyText := c.outgoing(4000, plantCopy, d)
	assert.Greater(t, len(copyText), 4000)
	fresh := c.outgoing(4000, plantNothing, d)
	assert.Len(t, fresh, 4000)
	for range 20 {
		assert.NotEqual(t, c.outgoing(100, plantSecret, d), c.prose(100))
	}
}
