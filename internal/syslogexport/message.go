// Package syslogexport sends activity records to a syslog receiver or
// SIEM: RFC 5424 messages (flowd's fields as structured data) or CEF, over
// TCP or TLS with octet-counting framing (RFC 6587), or UDP. Records wait
// in a bounded queue off the message path (exporter.go); this file is the
// pure formatting.
package syslogexport

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/flowd-dev/flowd/internal/activity"
)

// SDID is the structured data element flowd's fields travel in: a name
// "@" a private enterprise number, as RFC 5424 7.2.2 asks of an SD-ID
// that is not IANA's.
const SDID = "flowd@32473"

// appName is the APP-NAME of every message.
const appName = "flowd"

// facility is "log audit" (RFC 5424 6.2.1): these are audit records.
const facility = 13

// Severities (RFC 5424 6.2.1) and what earns them.
const (
	sevWarning = 4 // denied, or high risk
	sevNotice  = 5 // asked, warned, medium risk
	sevInfo    = 6
)

func severity(r *activity.Record) int {
	switch {
	case r.Decision == "deny" || activity.RiskAtLeast(r.RiskLevel, "high"):
		return sevWarning
	case r.Decision == "ask" || r.Decision == "warn" || activity.RiskAtLeast(r.RiskLevel, "medium"):
		return sevNotice
	}
	return sevInfo
}

// Source is who sends: the HOSTNAME and PROCID of each message.
type Source struct {
	Host string
	PID  int
}

// header appends an RFC 5424 HEADER and a space: PRI, version 1, the
// record's time in UTC to the microsecond, host, app, pid and the record
// type as MSGID.
func header(dst []byte, r *activity.Record, src Source) []byte {
	dst = append(dst, '<')
	dst = strconv.AppendInt(dst, int64(facility*8+severity(r)), 10)
	dst = append(dst, ">1 "...)
	t := r.Time
	if t.IsZero() {
		t = time.Now()
	}
	dst = t.UTC().AppendFormat(dst, "2006-01-02T15:04:05.000000Z07:00")
	dst = append(dst, ' ')
	dst = appendHeaderField(dst, src.Host, 255)
	dst = append(dst, ' ')
	dst = append(dst, appName...)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(src.PID), 10)
	dst = append(dst, ' ')
	dst = appendHeaderField(dst, r.Type, 32)
	return append(dst, ' ')
}

// appendHeaderField appends s as a header field: printable US-ASCII with
// no space, at most max bytes; "-" (nil) when nothing is left of it.
func appendHeaderField(dst []byte, s string, max int) []byte {
	n := 0
	for i := 0; i < len(s) && n < max; i++ {
		if c := s[i]; c > ' ' && c < 0x7f {
			dst = append(dst, c)
			n++
		}
	}
	if n == 0 {
		dst = append(dst, '-')
	}
	return dst
}

// bom starts a MSG that is UTF-8 (RFC 5424 6.4).
const bom = "\xef\xbb\xbf"

// RFC5424 appends r as an RFC 5424 message: its fields as SD-PARAMs of
// SDID, and as MSG the record's JSON, which is what its audit hash covers
// plus the hash (activity.Record), so a SIEM can check the chain.
// withDetails false leaves the details out of the JSON (a datagram too
// big otherwise), which the element says with truncated="details".
func RFC5424(dst []byte, r *activity.Record, src Source, withDetails bool) []byte {
	dst = header(dst, r, src)
	dst = append(dst, '[')
	dst = append(dst, SDID...)
	for _, p := range params(r) {
		if p.value == "" {
			continue
		}
		dst = append(dst, ' ')
		dst = append(dst, p.name...)
		dst = append(dst, `="`...)
		dst = appendParamValue(dst, p.value)
		dst = append(dst, '"')
	}
	rec := *r
	if !withDetails && len(rec.Details) > 0 {
		rec.Details = nil
		dst = append(dst, ` truncated="details"`...)
	}
	dst = append(dst, "] "+bom...)
	b, err := json.Marshal(&rec)
	if err != nil { // a record that came from the store always encodes
		b = []byte(`{"error":` + strconv.Quote(err.Error()) + `}`)
	}
	return append(dst, b...)
}

type param struct{ name, value string }

// params are flowd's fields, by the names a SIEM query uses.
func params(r *activity.Record) []param {
	u := func(n uint64) string {
		if n == 0 {
			return ""
		}
		return strconv.FormatUint(n, 10)
	}
	return []param{
		{"id", u(r.ID)},
		{"chain_seq", u(r.ChainSeq)},
		{"hash", r.Hash},
		{"prev_hash", r.PrevHash},
		{"decision", r.Decision},
		{"verdict", r.Verdict},
		{"rule", rule(r)},
		{"risk", r.RiskLevel},
		{"flow_type", r.FlowType},
		{"server", r.Server},
		{"tool", r.Tool},
		{"method", r.Method},
		{"request_id", r.RequestID},
		{"session", r.Session},
		{"reason", r.Reason},
	}
}

// rule is the policy rule that decided a call, which its details carry.
func rule(r *activity.Record) string {
	if len(r.Details) == 0 || !strings.Contains(string(r.Details), `"rule"`) {
		return ""
	}
	var d struct {
		Rule string `json:"rule"`
	}
	if json.Unmarshal(r.Details, &d) != nil {
		return ""
	}
	return d.Rule
}

// appendParamValue escapes '"', '\' and ']' with a backslash (RFC 5424
// 6.3.3) and makes the value valid UTF-8.
func appendParamValue(dst []byte, v string) []byte {
	v = strings.ToValidUTF8(v, string(utf8.RuneError))
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '"', '\\', ']':
			dst = append(dst, '\\', c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// CEF appends r as an RFC 5424 message without structured data whose MSG
// is an ArcSight CEF event.
func CEF(dst []byte, r *activity.Record, src Source, version string) []byte {
	dst = header(dst, r, src)
	dst = append(dst, "- CEF:0|flowd|flowd|"...)
	dst = appendCEFHeader(dst, version)
	dst = append(dst, '|')
	dst = appendCEFHeader(dst, r.Type)
	dst = append(dst, '|')
	name := r.Type
	if r.Decision != "" {
		name += " " + r.Decision
	}
	dst = appendCEFHeader(dst, name)
	dst = append(dst, '|')
	dst = strconv.AppendInt(dst, int64(cefSeverity(r.RiskLevel)), 10)
	dst = append(dst, '|')
	t := r.Time
	if t.IsZero() {
		t = time.Now()
	}
	ext := []param{
		{"rt", strconv.FormatInt(t.UnixMilli(), 10)},
		{"dvchost", src.Host},
		{"externalId", strconv.FormatUint(r.ID, 10)},
		{"act", r.Decision},
		{"outcome", r.Verdict},
		{"reason", r.Reason},
		{"requestMethod", r.Method},
	}
	for i, p := range []param{{"server", r.Server}, {"tool", r.Tool}, {"session", r.Session},
		{"flowType", r.FlowType}, {"rule", rule(r)}, {"hash", r.Hash}} {
		if p.value != "" {
			n := strconv.Itoa(i + 1)
			ext = append(ext, param{"cs" + n + "Label", p.name}, param{"cs" + n, p.value})
		}
	}
	if r.RiskLevel != "" {
		ext = append(ext, param{"flexString1Label", "risk"}, param{"flexString1", r.RiskLevel})
	}
	if r.PrevHash != "" {
		ext = append(ext, param{"flexString2Label", "prevHash"}, param{"flexString2", r.PrevHash})
	}
	if r.ChainSeq != 0 {
		ext = append(ext, param{"cn1Label", "chainSeq"}, param{"cn1", strconv.FormatUint(r.ChainSeq, 10)})
	}
	first := true
	for _, p := range ext {
		if p.value == "" {
			continue
		}
		if !first {
			dst = append(dst, ' ')
		}
		first = false
		dst = append(dst, p.name...)
		dst = append(dst, '=')
		dst = appendCEFExtension(dst, p.value)
	}
	return dst
}

// cefSeverity maps a risk level onto CEF's 0 to 10.
func cefSeverity(risk string) int {
	switch strings.ToLower(risk) {
	case "low":
		return 3
	case "medium":
		return 5
	case "high":
		return 8
	case "critical":
		return 10
	}
	return 1
}

// appendCEFHeader escapes '\' and '|', the header's separator; a header
// field has no line breaks, so they become spaces.
func appendCEFHeader(dst []byte, v string) []byte {
	v = strings.ToValidUTF8(v, string(utf8.RuneError))
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\', '|':
			dst = append(dst, '\\', c)
		case '\n', '\r':
			dst = append(dst, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// appendCEFExtension escapes '\' and '=', and writes line breaks as \n
// and \r, as the CEF spec asks of extension values.
func appendCEFExtension(dst []byte, v string) []byte {
	v = strings.ToValidUTF8(v, string(utf8.RuneError))
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\', '=':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, `\n`...)
		case '\r':
			dst = append(dst, `\r`...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
