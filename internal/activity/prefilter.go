package activity

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// prefilter is a test on a record's stored encoding that every record a
// filter matches passes, so that the records a narrow filter leaves out
// are skipped without being decoded: decoding is what a filtered page of
// a large store spends its time on. What passes is decoded and matched
// as before; an undecodable record that fails it goes unnoticed, as it
// could not have matched.
type prefilter struct {
	// needles are the equality filters' fields as json.Marshal writes
	// them into a stored record ("server":"slack").
	needles [][]byte
	// minRisk, when above none, is the least risk a record must have.
	minRisk string
}

func (f Filter) prefilter() prefilter {
	var p prefilter
	for _, kv := range [][2]string{{"type", f.Type}, {"session", f.Session}, {"server", f.Server},
		{"tool", f.Tool}, {"flow_type", f.FlowType}} {
		// A record written with invalid UTF-8 holds U+FFFD escaped
		// (\ufffd) where the filter's encoding has it as is.
		if kv[1] == "" || strings.ContainsRune(kv[1], utf8.RuneError) {
			continue
		}
		v, _ := json.Marshal(kv[1]) // a string always encodes
		p.needles = append(p.needles, append([]byte(`"`+kv[0]+`":`), v...))
	}
	if f.RiskLevel != "" && !RiskAtLeast("none", f.RiskLevel) {
		p.minRisk = f.RiskLevel
	}
	return p
}

// riskKey is how a record's risk level starts in its encoding. Only a key
// is written this way: in a string value the quotes are escaped.
var riskKey = []byte(`"risk_level":"`)

// mayMatch is false only for the encoding of a record the filter cannot
// match.
func (p prefilter) mayMatch(raw []byte) bool {
	for _, n := range p.needles {
		if !bytes.Contains(raw, n) {
			return false
		}
	}
	if p.minRisk == "" {
		return true
	}
	// Record's risk_level comes before its details, so the first such key
	// is the record's own when it has one; when it has none its risk is
	// none, which the filter leaves out whatever the details say.
	i := bytes.Index(raw, riskKey)
	if i < 0 {
		return false
	}
	level := raw[i+len(riskKey):]
	if end := bytes.IndexByte(level, '"'); end >= 0 {
		level = level[:end]
	}
	return RiskAtLeast(string(level), p.minRisk)
}
