package activity

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/sessionid"
)

// Record is one entry of the activity log. The store assigns ID; fields left
// empty are omitted from the stored JSON to keep the log small.
type Record struct {
	ID      uint64    `json:"id"`
	Time    time.Time `json:"time"`
	Type    string    `json:"type"` // one of Types
	Session string    `json:"session,omitempty"`
	Server  string    `json:"server,omitempty"`
	Tool    string    `json:"tool,omitempty"`
	Method  string    `json:"method,omitempty"`
	// RequestID is the JSON-RPC id of the message (jsonrpc.IDText), as
	// a collector joins a record to its client's and server's traces.
	RequestID     string          `json:"request_id,omitempty"`
	ArgsBytes     int             `json:"args_bytes,omitempty"`
	ResultBytes   int             `json:"result_bytes,omitempty"`
	Verdict       string          `json:"verdict,omitempty"`  // pass, block, replace, ...
	Decision      string          `json:"decision,omitempty"` // allow, warn, ask, deny
	Reason        string          `json:"reason,omitempty"`
	RiskLevel     string          `json:"risk_level,omitempty"`
	FlowType      string          `json:"flow_type,omitempty"`
	LatencyMicros int64           `json:"latency_us,omitempty"` // upstream round trip
	Details       json.RawMessage `json:"details,omitempty"`    // event-specific extras

	// The audit chain, set by the store as it writes the record: its
	// position (1, 2, … with no gaps), the hash of the record before it
	// ("" at the chain's start) and its own hash, the SHA-256 of its JSON
	// without the hash, which is not stored (chain.go). Hash must stay
	// the last field, so that an exported line is the hashed JSON with
	// the hash appended.
	ChainSeq uint64 `json:"chain_seq,omitempty"`
	PrevHash string `json:"prev_hash,omitempty"`
	Hash     string `json:"hash,omitempty"`
}

// The kinds of record flowd writes.
const (
	TypeToolCall       = "tool_call"       // a call through a shim, with its result
	TypeMessage        = "message"         // another MCP message flowd judged or refused
	TypeToolsList      = "tools_list"      // a tools/list answer screened for poisoned tools
	TypeHookEvaluation = "hook_evaluation" // an agent's own tool use, seen by its hook
	TypeFlowSummary    = "flow_summary"    // a session's flows, when it ends
	TypeShimConnect    = "shim_connect"
	TypeShimDisconnect = "shim_disconnect"
	TypeUnjudged       = "unjudged" // messages a shim passed while flowd could not judge them
	// A config that lowers protection, held back for the approval
	// passphrase, and one the user applied with it.
	TypeConfigHeld    = "config_held"
	TypeConfigApplied = "config_applied"
	// The approval passphrase set or changed, and by whom: a passphrase
	// the user did not set shows here.
	TypePassphraseSet = "passphrase_set"
)

// Types lists every record type, for filters to check against.
var Types = []string{TypeToolCall, TypeMessage, TypeToolsList, TypeHookEvaluation,
	TypeFlowSummary, TypeShimConnect, TypeShimDisconnect, TypeUnjudged, TypeConfigHeld, TypeConfigApplied, TypePassphraseSet}

// FlowTypes lists the flow types a record can have (flow.FlowType).
var FlowTypes = []string{"internal→internal", "internal→external", "external→internal", "external→external"}

// DefaultLimit is how many records Query returns when Filter.Limit is unset,
// so a bare `flowd activity` prints a screenful rather than the whole log.
const DefaultLimit = 50

// Filter selects records for Query. Empty fields match everything.
type Filter struct {
	Type    string
	Session string
	Server  string
	// RiskLevel keeps records at least this risky: "high" also returns
	// "critical".
	RiskLevel string
	FlowType  string
	// Owner, when set, keeps only the records of that uid's sessions in a
	// system flowd (sessionid.Owner): what one of its users may see.
	Owner *int
	Tool  string
	// Since drops records older than this instant, Until those newer.
	Since, Until time.Time
	// Before keeps records whose ID is below it: the cursor of the next
	// page, the ID of the last record of this one. After keeps those
	// above it (an event stream resuming). Zero: no bound.
	Before, After uint64
	// Limit caps the result; zero means DefaultLimit.
	Limit int
}

// riskLevels is ordered from least to most risky; a record without a risk
// level counts as "none".
var riskLevels = []string{"none", "low", "medium", "high", "critical"}

func riskRank(level string) (int, bool) {
	if level == "" {
		return 0, true
	}
	for i, l := range riskLevels {
		if strings.EqualFold(l, level) {
			return i, true
		}
	}
	return 0, false
}

// RiskAtLeast reports whether level is min or riskier on the scale
// none < low < medium < high < critical. An empty level is "none"; an
// unknown level or min never matches, so a typo cannot widen a filter.
func RiskAtLeast(level, min string) bool {
	l, ok := riskRank(level)
	if !ok {
		return false
	}
	m, ok := riskRank(min)
	return ok && l >= m
}

// Check says what is wrong with a filter a user typed, so that a typo is an
// error rather than an empty answer. A flow type may be written with "->"
// for "→"; Check returns the filter with it spelled as stored.
func (f Filter) Check() (Filter, error) {
	if f.Type != "" && !slices.Contains(Types, f.Type) {
		return f, fmt.Errorf("unknown record type %q (want one of %s)", f.Type, strings.Join(Types, ", "))
	}
	if _, ok := riskRank(f.RiskLevel); !ok {
		return f, fmt.Errorf("unknown risk level %q (want one of %s)", f.RiskLevel, strings.Join(riskLevels, ", "))
	}
	f.FlowType = strings.ReplaceAll(f.FlowType, "->", "→")
	if f.FlowType != "" && !slices.Contains(FlowTypes, f.FlowType) {
		return f, fmt.Errorf("unknown flow type %q (want one of %s; -> may stand for →)", f.FlowType, strings.Join(FlowTypes, ", "))
	}
	if f.Limit < 0 {
		return f, fmt.Errorf("limit %d is negative (0 means the default, %d)", f.Limit, DefaultLimit)
	}
	return f, nil
}

// Matches reports whether r is one of the records f selects, as Query
// would select it (IDs and limit aside).
func (f Filter) Matches(r Record) bool {
	switch {
	case f.Type != "" && r.Type != f.Type,
		f.Session != "" && r.Session != f.Session,
		f.Server != "" && r.Server != f.Server,
		f.Tool != "" && r.Tool != f.Tool,
		!f.Until.IsZero() && r.Time.After(f.Until),
		f.FlowType != "" && r.FlowType != f.FlowType,
		f.RiskLevel != "" && !RiskAtLeast(r.RiskLevel, f.RiskLevel),
		f.Owner != nil && !ownedBy(r.Session, *f.Owner),
		!f.Since.IsZero() && r.Time.Before(f.Since):
		return false
	}
	return true
}

// all reports whether f matches every record, whatever its fields (IDs
// aside): a record need not be decoded to be matched.
func (f Filter) all() bool {
	return f.Type == "" && f.Session == "" && f.Server == "" && f.Tool == "" && f.FlowType == "" && f.RiskLevel == "" &&
		f.Owner == nil && f.Since.IsZero() && f.Until.IsZero()
}

func ownedBy(sess string, uid int) bool {
	owner, ok := sessionid.Owner(sess)
	return ok && owner == uid
}
