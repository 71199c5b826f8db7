package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Faults is what happened to tool calls made without pause through shims
// while flowd was killed (-9) and restarted, then stopped (SIGSTOP) past
// the shims' verdict timeout and continued: every call is counted by its
// fate, for one fail_mode.
type Faults struct {
	FailMode string `json:"fail_mode"`
	Shims    int    `json:"shims"`
	Calls    int64  `json:"calls"`
	// Echoed: answered by the server, as sent.
	Echoed int64 `json:"echoed"`
	// Refused: answered with an error under the call's id (fail_mode
	// closed while flowd was away).
	Refused int64 `json:"refused"`
	// Unanswered: no answer within the stall timeout.
	Unanswered int64 `json:"unanswered"`
	// Wrong: an answer that was not the call's (a duplicate, another id,
	// or text that is no answer).
	Wrong int64 `json:"wrong"`
	// Unjudged: activity records of messages the shims passed or refused
	// while flowd could not judge them, written once flowd was back: the
	// log says what happened to each.
	Unjudged int `json:"unjudged_records"`
	// Longest is the slowest call, in ms: about the verdict timeout while
	// flowd was stopped.
	LongestMS int64 `json:"longest_ms"`
}

// faultTimeout is the shims' verdict timeout during the fault run: short,
// so the run is.
const faultTimeout = time.Second

// measureFaults runs the fault schedule once per fail mode.
func measureFaults(bins binaries, tmp string, shims int) ([]Faults, error) {
	var out []Faults
	for _, mode := range []string{"open", "closed"} {
		f, err := faultRun(bins, filepath.Join(tmp, "faults-"+mode), mode, shims)
		if err != nil {
			return out, fmt.Errorf("fail_mode %s: %w", mode, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// refusedCall reports whether line answers call id with an error.
func refusedCall(line []byte, id int64) bool {
	var resp struct {
		ID     int64           `json:"id"`
		Error  json.RawMessage `json:"error"`
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	return json.Unmarshal(line, &resp) == nil && resp.ID == id && (resp.Error != nil || resp.Result.IsError)
}

// runFaults builds or finds the binaries and runs the fault schedule.
func runFaults(binDir string, shims int) ([]Faults, error) {
	tmp, err := os.MkdirTemp("", "flowd-faults-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bins, err := binariesFrom(binDir, tmp, func() {})
	if err != nil {
		return nil, err
	}
	return measureFaults(bins, tmp, shims)
}

func printFaults(w *os.File, fs []Faults, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(fs)
	}
	fmt.Fprintln(w, "| fail_mode | shims | calls | echoed | refused | unanswered | wrong or duplicated | unjudged records | slowest |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, f := range fs {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %d | %d | %d ms |\n", f.FailMode, f.Shims, f.Calls, f.Echoed, f.Refused,
			f.Unanswered, f.Wrong, f.Unjudged, f.LongestMS)
	}
	return nil
}
