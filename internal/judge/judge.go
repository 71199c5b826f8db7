package judge

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/attackprint"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/pins"
	"github.com/flowd-dev/flowd/internal/policy"
	"github.com/flowd-dev/flowd/internal/quarantine"
	"github.com/flowd-dev/flowd/internal/secrets"
	"github.com/flowd-dev/flowd/internal/selfguard"
)

// Judge decides for every entrance. It holds what decisions read and
// write: the settings, the sessions' flow state, and the stores it records
// to. The stores belong to whoever opened them; the judge only uses them.
type Judge struct {
	settings atomic.Pointer[Settings] // replaced whole by SetSettings

	Flows      *flow.Tracker
	Activity   *activity.Store
	Quarantine *quarantine.Store  // blocked results
	Pins       *pins.Store        // approved tool definitions
	Attacks    *attackprint.Store // prints of attacks caught; nil: none kept
	Log        *slog.Logger
	// Self knows this flowd's files and processes, which the agent may
	// not touch (selfguard). Set before the first call.
	Self selfguard.Guard
	// OnRecord, if set before the first decision, sees every record
	// appended (the metrics count them).
	OnRecord func(activity.Record)

	corr   correlator
	behind background   // what results leave behind their verdicts
	tools  sessionTools // what each session's servers listed
	// thorough: the check reads all of a call, even past a settled
	// verdict (tests compare the two).
	thorough bool
}

// Stores are the stores a judge records to.
type Stores struct {
	Activity   *activity.Store
	Quarantine *quarantine.Store
	Pins       *pins.Store
	Attacks    *attackprint.Store // optional
}

// New builds the decision machinery the config describes.
func New(c *config.Config, st Stores, log *slog.Logger) (*Judge, error) {
	set, err := NewSettings(c)
	if err != nil {
		return nil, err
	}
	det, err := secrets.Default()
	if err != nil {
		return nil, fmt.Errorf("load secret rules: %w", err)
	}
	flows := flow.NewTracker(flow.Options{
		MaxOrigins:   c.Flow.MaxOrigins,
		MaxHashBytes: c.Flow.MaxResponseHashBytes,
		MinLength:    c.Flow.MinMatchLength,
		IdleTimeout:  c.Flow.SessionIdleTimeout.Duration,
		MaxBytes:     c.Flow.MaxMemoryBytes,
		OnForget: func(sess string, freed int) {
			log.Warn("forgot a session's results to stay within flow.max_memory_bytes; its calls out are now judged as carrying internal data",
				"session", sess, "freed_bytes", freed, "limit", c.Flow.MaxMemoryBytes)
		},
	}, det)
	j := &Judge{Flows: flows, Activity: st.Activity, Quarantine: st.Quarantine, Pins: st.Pins, Attacks: st.Attacks, Log: log}
	j.settings.Store(set)
	return j, nil
}

// Settings are what decisions read now. A decision reads them once and
// keeps them to its end, whatever a reload does meanwhile.
func (j *Judge) Settings() *Settings { return j.settings.Load() }

// SetSettings applies new settings to every decision from now on.
func (j *Judge) SetSettings(s *Settings) { j.settings.Store(s) }

// Record appends an activity record.
func (j *Judge) Record(r activity.Record) {
	if j.OnRecord != nil {
		j.OnRecord(r)
	}
	j.Activity.Append(r)
}

// Later runs job after the verdict it follows is on its way, on the
// background queue: an activity record, a result's recording as an
// origin. Checks of the session wait for such recordings, not for the
// queue.
func (j *Judge) Later(job func()) { j.behind.add(job) }

// Close runs the jobs queued by Later and stops their worker. Nothing may
// be queued after it.
func (j *Judge) Close() { j.behind.close() }

// Announce remembers a hook's PreToolUse of an MCP tool, so that the
// shim's call that follows can join the hook's session (see correlator).
func (j *Judge) Announce(session, toolUseID string) {
	j.corr.announce(time.Now(), session, toolUseID)
}

// Announced returns the hook session that announced this tools/call, if
// any, and how it was matched; Contested, with no session, when more
// than one session announced it.
func (j *Judge) Announced(params []byte) (session, how string) {
	return j.corr.match(time.Now(), params)
}

// Settings is everything the config decides, swapped at once on reload.
type Settings struct {
	Cfg        *config.Config
	Rules      policy.Rules
	Classifier *classify.Classifier
	Scanner    *injection.Scanner // nil when injection.enabled is false
	// hosts are Rules.SuspiciousEndpoints made ready to search for, once
	// rather than three times for each call.
	hosts policy.Hosts
}

// NewSettings builds the settings the config describes.
func NewSettings(c *config.Config) (*Settings, error) {
	cl, err := Classifier(c)
	if err != nil {
		return nil, err
	}
	s := &Settings{Cfg: c, Rules: rulesFrom(c), Classifier: cl}
	s.hosts = policy.NewHosts(s.Rules.SuspiciousEndpoints)
	if c.Injection.Enabled {
		if s.Scanner, err = Scanner(c.Injection); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Scanner builds the prompt-injection scanner the config describes.
func Scanner(c config.Injection) (*injection.Scanner, error) {
	o := injection.DefaultOptions()
	o.Thresholds = injection.Thresholds{Flag: c.Thresholds.Flag, Redact: c.Thresholds.Redact, Block: c.Thresholds.Block}
	o.MaxFieldBytes, o.MaxMessageBytes, o.TimeBudget = c.MaxFieldBytes, c.MaxMessageBytes, c.TimeBudget.Duration
	for _, w := range c.Waivers {
		o.Waivers = append(o.Waivers, injection.Waiver{Server: w.Server, Tool: w.Tool, Rule: w.Rule})
	}
	s, err := injection.New(o)
	if err != nil {
		return nil, fmt.Errorf("config: injection: %w", err)
	}
	return s, nil
}

// Classifier builds the classifier the config describes.
func Classifier(c *config.Config) (*classify.Classifier, error) {
	cl, err := classify.New(classify.Overrides{
		Servers:        classes(c.Classify.Servers),
		Tools:          classes(c.Classify.Tools),
		DefaultUnknown: classify.Class(c.Classify.DefaultUnknown),
	})
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return cl, nil
}

func classes(m map[string]string) map[string]classify.Class {
	out := make(map[string]classify.Class, len(m))
	for k, v := range m {
		out[k] = classify.Class(v)
	}
	return out
}

func rulesFrom(c *config.Config) policy.Rules {
	p := c.Policy
	r := policy.Rules{
		DefaultAction:         policy.Action(p.DefaultAction),
		InternalToExternal:    policy.Action(p.InternalToExternal),
		InternalToUnknown:     policy.Action(p.InternalToUnknown),
		SensitiveDataExternal: policy.Action(p.SensitiveDataExternal),
		AskFallback:           policy.Action(p.AskFallback),
		PrivateAddresses:      policy.Action(p.PrivateAddresses),
		RiskyCommands:         policy.Action(p.RiskyCommands),
		ReadThenSend:          policy.Action(p.ReadThenSend),
		RequireJustification:  p.RequireJustification,
		SuspiciousEndpoints:   p.SuspiciousEndpoints,
		ToolOverrides:         map[string]policy.Action{},
	}
	if c.Injection.Enabled {
		r.TaintAction = c.Injection.TaintAction
	}
	for k, v := range p.ToolOverrides {
		r.ToolOverrides[k] = policy.Action(v)
	}
	return r
}

// MustJSON encodes what an activity record's details hold, which always
// encodes.
func MustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// maxEdgesRecorded bounds the edges an activity record lists.
const maxEdgesRecorded = 10

// TrimEdges keeps an activity record's size bounded.
func TrimEdges(a flow.Analysis) flow.Analysis {
	if len(a.Edges) > maxEdgesRecorded {
		a.Edges = a.Edges[:maxEdgesRecorded]
	}
	return a
}
