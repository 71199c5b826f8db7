package injection

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Scans run at once from several goroutines, which share the pools of
// per-rule tables and the learned scorer's buffers, give what the same
// scans give one by one.
func TestScanConcurrent(t *testing.T) {
	// No time budget: on a loaded machine eight scans at once can run
	// out of one, and the test is of sharing, not of budgets.
	s, err := New(Options{TimeBudget: time.Hour})
	require.NoError(t, err)
	var texts []string
	for _, name := range []string{"attacks.json", "benign.json"} {
		for _, x := range corpusTexts(t, name, 0) {
			texts = append(texts, x.Text)
		}
	}
	require.NotEmpty(t, texts)
	ctx := Context{ExternalSource: true, Server: "web"}
	want := make([]Result, len(texts))
	for i, x := range texts {
		want[i] = s.ScanText(x, "text", ctx)
	}
	const workers = 8
	got := make([]Result, len(texts))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(texts); i += workers {
				got[i] = s.ScanText(texts[i], "text", ctx)
			}
		}()
	}
	wg.Wait()
	for i := range texts {
		assert.Equal(t, want[i].Action, got[i].Action, "%.100q", texts[i])
		assert.Equal(t, want[i].Detections, got[i].Detections, "%.100q", texts[i])
	}
}
