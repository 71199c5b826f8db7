package classify

import (
	"fmt"
	"strings"
)

// Class says where a tool's data lives and where its arguments can go.
type Class string

const (
	// Internal tools read or write data that stays under the user's
	// control: local files, the user's databases, repositories, vaults.
	Internal Class = "internal"
	// External tools send their arguments to people or services outside
	// that control: chat, mail, the open web, paste sites.
	External Class = "external"
	// Hybrid tools can do both: shells, browsers, cloud CLIs.
	Hybrid Class = "hybrid"
	// Unknown is only returned when configuration asks for it
	// (default_unknown = "unknown" or an explicit override).
	Unknown Class = "unknown"
)

// ParseClass turns a configuration value into a Class.
func ParseClass(s string) (Class, error) {
	switch c := Class(strings.ToLower(strings.TrimSpace(s))); c {
	case Internal, External, Hybrid, Unknown:
		return c, nil
	}
	return "", fmt.Errorf("unknown class %q (want internal, external, hybrid or unknown)", s)
}

// How a Result was reached.
const (
	MethodConfig     = "config"     // an override in the configuration
	MethodAnnotation = "annotation" // MCP tool annotations decided it
	MethodHeuristic  = "heuristic"  // names, descriptions or shell parsing
	MethodBuiltin    = "builtin"    // an agent's built-in tool
)

// Result is one classification. Reason is meant for people reading the
// activity log, so it names the words that decided the class.
type Result struct {
	Class      Class   `json:"class"`
	Confidence float64 `json:"confidence"`
	Method     string  `json:"method"`
	Reason     string  `json:"reason"`
	// CanReadData: the tool can return the user's private data, so its
	// output is worth tracking as an origin.
	CanReadData bool `json:"can_read_data"`
	// CanExfiltrate: arguments sent to the tool can leave the user's
	// control.
	CanExfiltrate bool `json:"can_exfiltrate"`
}

// capabilities are what a class implies on its own. Unknown assumes the
// worst on both counts.
func capabilities(c Class) (reads, sends bool) {
	switch c {
	case Internal:
		return true, false
	case External:
		return false, true
	default:
		return true, true
	}
}

func newResult(c Class, conf float64, method, reason string) Result {
	reads, sends := capabilities(c)
	return Result{Class: c, Confidence: round(conf), Method: method, Reason: reason, CanReadData: reads, CanExfiltrate: sends}
}

// round keeps confidences readable in logs and comparable in tests after
// the small additions and subtractions the combination rules make.
func round(f float64) float64 {
	return float64(int(f*100+0.5)) / 100
}
