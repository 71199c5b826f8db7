// Package sessiongraph draws one agent session as a picture of its data:
// sources (servers and tools, by class) → the data that moved →
// destinations, built from the session's activity records and the flow
// evidence they carry. Secrets are named by type, never shown.
package sessiongraph

import (
	"encoding/json"
	"slices"
	"sort"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/flow"
)

// Graph is a session's picture.
type Graph struct {
	Session string `json:"session"`
	Nodes   []Node `json:"nodes"`
	Edges   []Edge `json:"edges"`
}

// Node is a server/tool the session used.
type Node struct {
	ID    string         `json:"id"` // server/tool
	Class classify.Class `json:"class,omitempty"`
	Calls int            `json:"calls"`
}

// Edge is data that moved from a source to a destination, over all the
// calls that carried it.
type Edge struct {
	From      string         `json:"from"`
	FromClass classify.Class `json:"from_class"`
	To        string         `json:"to"`
	FlowType  string         `json:"flow_type"`
	Risk      string         `json:"risk"`
	Decision  string         `json:"decision"` // the strictest decision on a call that carried it
	Calls     int            `json:"calls"`
	Kinds     []string       `json:"kinds"`             // how it was recognised: exact, substring, secret…
	Secrets   []string       `json:"secrets,omitempty"` // secret types, never values
	Records   []uint64       `json:"records"`           // the activity records of the calls, for flowd explain
	// Matches are the pieces of data flowd recognised on the edge, up to
	// maxMatches; MoreMatches counts the rest.
	Matches     []Match `json:"matches"`
	MoreMatches int     `json:"more_matches,omitempty"`
}

// Match is one piece of data an edge carried as flowd recognised it: the
// fingerprint of the argument that matched (its hash and length), a
// secret's type and how it was written, or a short value's kind. Never
// the data itself: flow evidence holds none.
type Match struct {
	Kind     string `json:"kind"`
	Hash     string `json:"hash,omitempty"`
	Length   int    `json:"length,omitempty"`
	Secret   string `json:"secret,omitempty"`
	Encoding string `json:"encoding,omitempty"`
	Value    string `json:"value,omitempty"`
	Record   uint64 `json:"record"` // the call it was first seen in
}

// maxMatches bounds the matches an edge lists: a session that sent the
// same file a thousand times draws one edge, not a page of hashes.
const maxMatches = 50

// strictness orders decisions, for an edge's worst one.
var strictness = map[string]int{"": 0, "allow": 1, "warn": 2, "ask": 3, "deny": 4}

// Build draws the session from its records (any order).
func Build(session string, recs []activity.Record) Graph {
	g := Graph{Session: session, Nodes: []Node{}, Edges: []Edge{}}
	nodes := map[string]*Node{}
	edges := map[[2]string]*Edge{}
	for _, r := range recs {
		if r.Server == "" && r.Tool == "" {
			continue
		}
		var det struct {
			Classification *classify.Result `json:"classification"`
			Flow           *flow.Analysis   `json:"flow"`
		}
		json.Unmarshal(r.Details, &det)
		to := r.Server + "/" + r.Tool
		n := nodes[to]
		if n == nil {
			n = &Node{ID: to}
			nodes[to] = n
		}
		n.Calls++
		if det.Classification != nil && det.Classification.Class != "" {
			n.Class = det.Classification.Class
		}
		if det.Flow == nil {
			continue
		}
		for _, e := range det.Flow.Edges {
			from := e.From.Server + "/" + e.From.Tool
			if nodes[from] == nil {
				nodes[from] = &Node{ID: from, Class: e.From.Class}
			}
			key := [2]string{from, to}
			ge := edges[key]
			if ge == nil {
				ge = &Edge{From: from, FromClass: e.From.Class, To: to, FlowType: e.FlowType, Risk: e.Risk, Matches: []Match{}}
				edges[key] = ge
			}
			if !slices.Contains(ge.Records, r.ID) {
				ge.Records = append(ge.Records, r.ID)
				ge.Calls++
			}
			ge.Risk = flow.MaxRisk(ge.Risk, e.Risk)
			if strictness[r.Decision] > strictness[ge.Decision] {
				ge.Decision = r.Decision
			}
			if !slices.Contains(ge.Kinds, e.Kind) {
				ge.Kinds = append(ge.Kinds, e.Kind)
			}
			if e.Secret != "" && !slices.Contains(ge.Secrets, e.Secret) {
				ge.Secrets = append(ge.Secrets, e.Secret)
			}
			ge.add(Match{Kind: e.Kind, Hash: e.Hash, Length: e.Length, Secret: e.Secret, Encoding: e.Encoding, Value: e.Value, Record: r.ID})
		}
	}
	for _, n := range nodes {
		g.Nodes = append(g.Nodes, *n)
	}
	sort.Slice(g.Nodes, func(i, j int) bool { return g.Nodes[i].ID < g.Nodes[j].ID })
	for _, e := range edges {
		slices.Sort(e.Records)
		g.Edges = append(g.Edges, *e)
	}
	sort.Slice(g.Edges, func(i, j int) bool {
		a, b := g.Edges[i], g.Edges[j]
		if a.From != b.From {
			return a.From < b.From
		}
		return a.To < b.To
	})
	return g
}

// add lists m on the edge unless the same data is listed already.
func (e *Edge) add(m Match) {
	for _, o := range e.Matches {
		if o.Kind == m.Kind && o.Hash == m.Hash && o.Secret == m.Secret && o.Encoding == m.Encoding && o.Value == m.Value && o.Length == m.Length {
			return
		}
	}
	if len(e.Matches) == maxMatches {
		e.MoreMatches++
		return
	}
	e.Matches = append(e.Matches, m)
}
