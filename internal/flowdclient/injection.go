package flowdclient

import (
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/pins"
)

// Injection is what the prompt-injection scan found in one tool result,
// as activity records carry it (details.injection): `flowd explain`
// reads it back.
type Injection struct {
	Server     string                `json:"server"`
	Tool       string                `json:"tool,omitempty"`
	Score      float64               `json:"score"`
	Action     injection.Action      `json:"action"`
	Detections []injection.Detection `json:"detections,omitempty"`
	// Waived are detections a configured waiver silenced.
	Waived    []injection.Detection `json:"waived,omitempty"`
	Truncated bool                  `json:"truncated,omitempty"`
	// Scan says, for a result a bound cut short, which bound and how many
	// bytes were scanned of how many; nil when it was scanned whole.
	Scan *injection.Coverage `json:"scan,omitempty"`
	// Quarantine is the ID under which a blocked result was kept.
	Quarantine string `json:"quarantine_id,omitempty"`
	// Released: a human released this exact content earlier, so it
	// passed without a scan.
	Released bool `json:"released,omitempty"`
	// Tainted: this result marked the session as exposed to untrusted
	// content.
	Tainted bool `json:"tainted,omitempty"`
}

// ToolScan is what flowd found in one tools/list result: tools whose
// definitions score as prompt injection, and tools that differ from their
// pins. Activity records of type "tools_list" carry it.
type ToolScan struct {
	// Withheld are tools hidden from the client because their definition
	// scored block; Flagged scored flag or redact and were shown.
	Withheld []injection.ToolFinding `json:"withheld,omitempty"`
	Flagged  []injection.ToolFinding `json:"flagged,omitempty"`
	// Pending are tools hidden until the user approves them.
	Pending []pins.Change `json:"pending,omitempty"`
}

// Approval is the body of a pins approval.
type Approval struct {
	Server string `json:"server"`
	Tool   string `json:"tool,omitempty"` // every pending tool when empty
	// Passphrase is the user's approval passphrase, typed by the user.
	Passphrase string `json:"passphrase"`
}

// Release is a request to release quarantined content, or to read it:
// both need the approval passphrase.
type Release struct {
	Passphrase string `json:"passphrase"`
}

// PassphraseChange sets the approval passphrase (Old empty when none is
// set) or changes it.
type PassphraseChange struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// Approved is flowd's answer to an approval.
type Approved struct {
	Tools []string `json:"tools"`
	// Told is how many connected clients of the server were sent
	// notifications/tools/list_changed.
	Told int `json:"told"`
}
