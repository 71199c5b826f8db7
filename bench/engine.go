package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"time"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/secrets"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// Engine is the flow engine measured in this process, as flowd runs it:
// one session, a tracker with default options and the default secret
// detector.
type Engine struct {
	Origins     int     `json:"origins"`
	OriginBytes int64   `json:"origin_bytes"` // the tool results recorded, MCP envelopes included
	RecordMBps  float64 `json:"record_mb_per_s"`
	// HeapBytes is the live heap the session holds after recording every
	// origin: HeapAlloc after a GC, minus HeapAlloc after a GC before.
	HeapBytes int64 `json:"heap_bytes"`
	// HeapPer10k scales HeapBytes to 10,000 origins, the default session bound.
	HeapPer10k int64       `json:"heap_bytes_per_10k_origins"`
	Checks     int         `json:"checks"`
	ArgsBytes  int         `json:"args_bytes"` // mean size of the checked arguments
	Check      Percentiles `json:"check"`      // one Check call
	Planted    Planted     `json:"planted"`
}

// Planted counts the checked arguments by what they carried and what the
// engine found in them: a figure taken while the engine misses planted
// data would flatter it.
type Planted struct {
	Fresh        int `json:"fresh"`         // nothing from any origin
	FreshMatched int `json:"fresh_matched"` // … where the engine still found an edge
	Copies       int `json:"copies"`        // a 300-byte piece of one origin
	CopiesFound  int `json:"copies_found"`  // … traced to that origin
	Secrets      int `json:"secrets"`       // an origin's secret, raw or encoded
	SecretsFound int `json:"secrets_found"` // … traced to that origin
}

// argsBytes is the size of the arguments each check reads.
const argsBytes = 4096

// measureEngine records origins into a fresh session, then times Check on
// 4 KB arguments against them.
func measureEngine(origins, checks int) (Engine, error) {
	det, err := secrets.Default()
	if err != nil {
		return Engine{}, fmt.Errorf("load the secret detector: %w", err)
	}
	c := newCorpus(1)
	docs := make([]doc, origins)
	results := make([][]byte, origins)
	e := Engine{Origins: origins, Checks: checks}
	for i := range docs {
		docs[i] = c.result()
		results[i] = mcpResult(docs[i].text)
		e.OriginBytes += int64(len(results[i]))
	}

	ids := make([]uint64, origins)
	before := liveHeap()
	s := flow.NewTracker(flow.Options{}, det).Session("bench")
	start := time.Now()
	for i, r := range results {
		s.Begin()
		ids[i] = s.Record(flow.Origin{Server: "filesystem", Tool: "read_file", Method: "tools/call",
			Class: classify.Internal}, r)
	}
	s.Wait() // recorded means scanned for secrets too
	e.RecordMBps = float64(e.OriginBytes) / time.Since(start).Seconds() / mb
	// The first check builds the secrets' automaton: its memory counts.
	s.Check("slack", "post_message", classify.Result{Class: classify.External}, []byte(`{}`), nil, nil)
	e.HeapBytes = liveHeap() - before
	e.HeapPer10k = e.HeapBytes * 10000 / int64(origins)
	runtime.KeepAlive(results)

	type probe struct {
		args   []byte
		plant  plant
		origin uint64
	}
	probes := make([]probe, checks)
	withSecrets := secretDocs(docs)
	argsTotal := 0
	for i := range probes {
		p := probe{plant: plantNothing}
		var d doc
		switch r := c.rng.IntN(10); {
		case r < 3:
			j := c.rng.IntN(origins)
			p.plant, p.origin, d = plantCopy, ids[j], docs[j]
		case r < 5 && len(withSecrets) > 0:
			j := withSecrets[c.rng.IntN(len(withSecrets))]
			p.plant, p.origin, d = plantSecret, ids[j], docs[j]
		}
		text := c.outgoing(argsBytes-40, p.plant, d)
		p.args, _ = json.Marshal(map[string]string{"channel": "#general", "text": text}) // strings always encode
		argsTotal += len(p.args)
		probes[i] = p
	}
	e.ArgsBytes = argsTotal / max(checks, 1)

	dest := classify.Result{Class: classify.External}
	samples := make([]time.Duration, checks)
	for i, p := range probes {
		t0 := time.Now()
		a := s.Check("slack", "post_message", dest, p.args, unwrap.Views(p.args), nil)
		samples[i] = time.Since(t0)
		found := false
		for _, edge := range a.Edges {
			found = found || edge.From.ID == p.origin
		}
		switch p.plant {
		case plantNothing:
			e.Planted.Fresh++
			if len(a.Edges) > 0 {
				e.Planted.FreshMatched++
			}
		case plantCopy:
			e.Planted.Copies++
			if found {
				e.Planted.CopiesFound++
			}
		case plantSecret:
			e.Planted.Secrets++
			if found {
				e.Planted.SecretsFound++
			}
		}
	}
	e.Check = percentiles(samples)
	return e, nil
}

// secretDocs are the indexes of the docs that hold secrets.
func secretDocs(docs []doc) []int {
	var out []int
	for i, d := range docs {
		if len(d.secrets) > 0 {
			out = append(out, i)
		}
	}
	return out
}

// liveHeap is the heap in use once garbage is collected. Two collections:
// the first can leave objects that finalizers resurrect for one cycle.
func liveHeap() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
