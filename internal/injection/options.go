package injection

import (
	"fmt"
	"time"
)

// Action is what a score calls for.
type Action string

const (
	ActionPass   Action = "pass"
	ActionFlag   Action = "flag"
	ActionRedact Action = "redact"
	ActionBlock  Action = "block"
)

// Thresholds map a score in [0, 1] to an action: below Flag pass, below
// Redact flag, below Block redact, else block.
type Thresholds struct {
	Flag, Redact, Block float64
}

// Waiver drops one rule's detections for a server and tool, for content a
// user has decided to trust ("docs" may show shell commands). An empty
// Server, Tool or Rule matches any.
type Waiver struct {
	Server, Tool, Rule string
}

// Context is where a text came from.
type Context struct {
	// ExternalSource: the server reads content from outside the user's
	// control (web, inbound mail, public issues). It raises the score.
	ExternalSource bool
	Server, Tool   string
	// SessionTools are the names of the tools the session has (from its
	// servers' tools/list): a request in data to do what one of them does
	// ("transfer", "share", "invite") is a request the model can carry out.
	SessionTools []string
}

// Options configure a Scanner. Zero fields take the defaults of
// DefaultOptions.
type Options struct {
	Thresholds Thresholds
	// MaxFieldBytes bounds how much of one string field is scanned; the
	// rest is not looked at and the result is marked Truncated (BoundBytes).
	MaxFieldBytes int
	// MaxMessageBytes bounds the text scanned per message, over all fields.
	MaxMessageBytes int
	// TimeBudget bounds the time spent on one message: when it is used up
	// no further field is scanned and the result is marked Truncated
	// (BoundBudget).
	TimeBudget time.Duration
	// StructuralWeight and ContextualWeight scale each tier's score before
	// the tiers are combined.
	StructuralWeight, ContextualWeight float64
	// ExternalBoost and FreeTextBoost multiply a field's score by
	// (1 + boost) for external sources and for free-text fields
	// (descriptions, bodies, comments). Negative disables.
	ExternalBoost, FreeTextBoost float64
	Waivers                      []Waiver
	// DisableLearned turns the learned scorer (package learned) off: the
	// rules alone decide.
	DisableLearned bool
}

// DefaultOptions are the settings flowd ships with.
func DefaultOptions() Options {
	return Options{
		Thresholds:       Thresholds{Flag: 0.30, Redact: 0.60, Block: 0.85},
		MaxFieldBytes:    50 << 10,
		MaxMessageBytes:  1 << 20,
		TimeBudget:       100 * time.Millisecond,
		StructuralWeight: 1,
		ContextualWeight: 1,
		ExternalBoost:    0.10,
		FreeTextBoost:    0.05,
	}
}

func (o Options) withDefaults() (Options, error) {
	d := DefaultOptions()
	if o.Thresholds == (Thresholds{}) {
		o.Thresholds = d.Thresholds
	}
	if t := o.Thresholds; !(0 < t.Flag && t.Flag <= t.Redact && t.Redact <= t.Block && t.Block <= 1) {
		return o, fmt.Errorf("injection thresholds must satisfy 0 < flag <= redact <= block <= 1, got flag=%v redact=%v block=%v", t.Flag, t.Redact, t.Block)
	}
	setInt := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	setInt(&o.MaxFieldBytes, d.MaxFieldBytes)
	setInt(&o.MaxMessageBytes, d.MaxMessageBytes)
	if o.TimeBudget <= 0 {
		o.TimeBudget = d.TimeBudget
	}
	setWeight := func(v *float64, def float64) {
		switch {
		case *v == 0:
			*v = def
		case *v < 0:
			*v = 0
		}
	}
	setWeight(&o.StructuralWeight, d.StructuralWeight)
	setWeight(&o.ContextualWeight, d.ContextualWeight)
	setWeight(&o.ExternalBoost, d.ExternalBoost)
	setWeight(&o.FreeTextBoost, d.FreeTextBoost)
	return o, nil
}

func (t Thresholds) action(score float64) Action {
	switch {
	case score >= t.Block:
		return ActionBlock
	case score >= t.Redact:
		return ActionRedact
	case score >= t.Flag:
		return ActionFlag
	}
	return ActionPass
}

func (w Waiver) matches(ctx Context, rule string) bool {
	return (w.Server == "" || w.Server == ctx.Server) && (w.Tool == "" || w.Tool == ctx.Tool) && (w.Rule == "" || w.Rule == rule)
}
