// Package ssrf finds addresses in text that reach the machine itself, its
// private network or a cloud's metadata service, however they are
// written: an IPv4 address in decimal, octal, hex or shortened form,
// zero-padded, IPv6 loopback, IPv4-mapped, NAT64 and 6to4 forms, a URL
// whose userinfo hides the real host (http://trusted@10.0.0.1/), names
// that exist to resolve to such addresses (localhost, *.nip.io with the
// address inside, metadata.google.internal), and URLs carried inside
// another URL's query (a redirect service).
//
// A fetch tool sent to such an address is server-side request forgery:
// the agent's machine asks, with its own network position, for what an
// outsider could not reach. The package judges text only; it resolves no
// names (a name that resolves to a private address only at fetch time,
// DNS rebinding, is caught where the name says so, and otherwise is the
// fetcher's to refuse).
package ssrf

import (
	"net/netip"
	"strconv"
	"strings"

	"golang.org/x/text/width"
)

// Kind is the kind of address reached.
type Kind string

const (
	Metadata    Kind = "a cloud metadata service"
	Loopback    Kind = "loopback: this machine"
	Private     Kind = "a private network address"
	LinkLocal   Kind = "a link-local address"
	Unspecified Kind = "the unspecified address: this machine"
	Shared      Kind = "a carrier-grade NAT (shared) address"
)

// Target is a host that reaches an internal address.
type Target struct {
	Host string // as written
	Kind Kind
	Addr string // the address it stands for, when known
	// Disguised says how the spelling differs from the plain one ("octal
	// IPv4", "IPv4-mapped IPv6", "user-info before the host"), "" when
	// it is plain.
	Disguised string
}

// Reason says what the target is, for a person: "0x7f.1 (127.0.0.1,
// loopback: this machine, written as hexadecimal IPv4)".
func (t Target) Reason() string {
	s := t.Host + " ("
	if t.Addr != "" && t.Addr != t.Host {
		s += t.Addr + ", "
	}
	s += string(t.Kind)
	if t.Disguised != "" {
		s += ", written as " + t.Disguised
	}
	return s + ")"
}

// metadataAddrs are the cloud metadata services' addresses.
var metadataAddrs = map[netip.Addr]bool{
	netip.MustParseAddr("169.254.169.254"): true, // AWS, GCP, Azure, OpenStack, DigitalOcean…
	netip.MustParseAddr("169.254.170.2"):   true, // AWS ECS task credentials
	netip.MustParseAddr("100.100.100.200"): true, // Alibaba Cloud
	netip.MustParseAddr("fd00:ec2::254"):   true, // AWS IPv6
	netip.MustParseAddr("192.0.0.192"):     true, // Oracle Cloud
}

// metadataNames are the metadata services' host names.
var metadataNames = map[string]bool{"metadata.google.internal": true, "metadata": true, "metadata.goog": true,
	"instance-data": true, "instance-data.ec2.internal": true, "metadata.tencentyun.com": true}

// loopbackNames resolve to this machine by convention or by public DNS
// records made for the purpose.
var loopbackNames = []string{"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback", "localtest.me",
	"lvh.me", "vcap.me", "lacolhost.com"}

// embeddingDomains are wildcard DNS services that resolve a name to the
// address written in it (10.0.0.1.nip.io, app-10-0-0-1.sslip.io,
// 0a000001.nip.io), and rebinding services that alternate between two.
var embeddingDomains = []string{"nip.io", "sslip.io", "xip.io", "traefik.me", "backname.io", "rbndr.us", "1u.ms",
	"nip.direct", "localh.st"}

// Host judges one host as written in a URL's authority or a command's
// argument (brackets and a port allowed).
func Host(h string) (Target, bool) {
	orig := h
	h = clean(h)
	if h == "" {
		return Target{}, false
	}
	if metadataNames[h] {
		return Target{Host: orig, Kind: Metadata}, true
	}
	for _, n := range loopbackNames {
		if h == n || strings.HasSuffix(h, "."+n) {
			return Target{Host: orig, Kind: Loopback}, true
		}
	}
	if strings.HasSuffix(h, ".localhost") || strings.HasSuffix(h, ".internal") && strings.HasPrefix(h, "metadata") {
		return Target{Host: orig, Kind: Loopback}, true
	}
	for _, d := range embeddingDomains {
		if strings.HasSuffix(h, "."+d) {
			if a, ok := embedded(strings.TrimSuffix(h, "."+d)); ok {
				if t, ok := addrTarget(orig, a); ok {
					t.Disguised = "a wildcard-DNS name (" + d + ") that resolves to the address inside it"
					return t, true
				}
			}
		}
	}
	a, how, ok := parseAddr(h)
	if !ok {
		return Target{}, false
	}
	t, ok := addrTarget(orig, a)
	t.Disguised = how
	if t.Disguised == "" && !ascii(orig) {
		t.Disguised = "full-width or other non-ASCII characters"
	}
	return t, ok
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// clean lower-cases a host, folds full-width forms and odd dots, and
// drops brackets, a port, a zone and a trailing dot.
func clean(h string) string {
	h = strings.TrimSpace(h)
	if h == "" || len(h) > 512 {
		return ""
	}
	h = width.Fold.String(strings.ToLower(h))
	h = strings.NewReplacer("。", ".", "｡", ".", "．", ".").Replace(h)
	if strings.HasPrefix(h, "[") {
		if end := strings.IndexByte(h, ']'); end > 0 {
			h = h[1:end]
		}
	} else if i := strings.LastIndexByte(h, ':'); i >= 0 && strings.Count(h, ":") == 1 {
		h = h[:i]
	}
	if i := strings.IndexByte(h, '%'); i >= 0 && strings.Contains(h, ":") {
		h = h[:i] // zone
	}
	return strings.TrimSuffix(h, ".")
}

// embedded reads the address a wildcard-DNS name holds: dotted
// (a.10.0.0.1), dashed (a-10-0-0-1) or eight hex digits (0a000001).
func embedded(s string) (netip.Addr, bool) {
	labels := strings.Split(s, ".")
	if len(labels) >= 4 {
		if a, err := netip.ParseAddr(strings.Join(labels[len(labels)-4:], ".")); err == nil {
			return a, true
		}
	}
	for i := len(labels) - 1; i >= 0; i-- {
		l := labels[i]
		parts := strings.Split(l, "-")
		if len(parts) >= 4 {
			if a, err := netip.ParseAddr(strings.Join(parts[len(parts)-4:], ".")); err == nil {
				return a, true
			}
			if a, err := netip.ParseAddr(strings.Join(parts, ":")); err == nil { // sslip.io IPv6: --1
				return a, true
			}
		}
		if len(l) == 8 {
			if v, err := strconv.ParseUint(l, 16, 32); err == nil {
				return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
			}
		}
	}
	return netip.Addr{}, false
}

// parseAddr reads an IP address the way inet_aton and URL parsers do,
// and says how the spelling differs from the plain form.
func parseAddr(h string) (netip.Addr, string, bool) {
	if strings.Contains(h, ":") {
		a, err := netip.ParseAddr(h)
		if err != nil {
			return netip.Addr{}, "", false
		}
		return unwrap6(a)
	}
	a, ok := inetAton(h)
	if !ok {
		return netip.Addr{}, "", false
	}
	how := ""
	if a.String() != h {
		how = ipv4Spelling(h)
	}
	return a, how, true
}

// unwrap6 finds the IPv4 address inside IPv4-mapped, -compatible, NAT64
// and 6to4 addresses.
func unwrap6(a netip.Addr) (netip.Addr, string, bool) {
	b := a.As16()
	switch {
	case a.Is4In6():
		return a.Unmap(), "an IPv4-mapped IPv6 address", true
	case b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b && allZero(b[4:12]):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), "a NAT64 IPv6 address", true
	case b[0] == 0x20 && b[1] == 0x02:
		v4 := netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
		if _, internal := addrTarget("", v4); internal {
			return v4, "a 6to4 IPv6 address", true
		}
	case allZero(b[:12]) && !a.IsLoopback() && !a.IsUnspecified():
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), "an IPv4-compatible IPv6 address", true
	}
	return a, "", true
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// inetAton parses one to four parts, each decimal, octal (leading 0) or
// hex (0x), the last filling the remaining bytes: 2130706433, 0x7f.1,
// 0177.0.0.1 and 127.1 are all 127.0.0.1.
func inetAton(h string) (netip.Addr, bool) {
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		v, ok := atonPart(p)
		if !ok {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	var v uint64
	n := len(vals)
	for i := 0; i < n-1; i++ {
		if vals[i] > 0xff {
			return netip.Addr{}, false
		}
		v |= vals[i] << (8 * (3 - i))
	}
	last := vals[n-1]
	if last >= 1<<(8*(5-n)) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func atonPart(p string) (uint64, bool) {
	if p == "" || len(p) > 34 {
		return 0, false
	}
	base, digits := 10, p
	switch {
	case strings.HasPrefix(p, "0x"):
		base, digits = 16, p[2:]
		if digits == "" {
			return 0, true
		}
	case len(p) > 1 && p[0] == '0':
		base, digits = 8, p[1:]
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil || v > 0xffffffff {
		return 0, false
	}
	return v, true
}

func ipv4Spelling(h string) string {
	parts := strings.Split(h, ".")
	switch {
	case strings.Contains(h, "0x"):
		return "hexadecimal IPv4"
	case len(parts) == 1:
		return "a decimal integer"
	case len(parts) < 4:
		return "a shortened IPv4 address"
	}
	for _, p := range parts {
		if len(p) > 1 && p[0] == '0' {
			if strings.Trim(p, "0") == "" || strings.Trim(p[1:], "01234567") == "" && strings.TrimLeft(p, "0") != p {
				return "octal or zero-padded IPv4"
			}
		}
	}
	return "an unusual IPv4 spelling"
}

// addrTarget judges an address.
func addrTarget(host string, a netip.Addr) (Target, bool) {
	t := Target{Host: host, Addr: a.String()}
	switch {
	case metadataAddrs[a]:
		t.Kind = Metadata
	case a.IsLoopback():
		t.Kind = Loopback
	case a.IsUnspecified() || a.Is4() && a.As4()[0] == 0:
		t.Kind = Unspecified
	case a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast():
		t.Kind = LinkLocal
	case a.IsPrivate():
		t.Kind = Private
	case a.Is4() && a.As4()[0] == 100 && a.As4()[1]&0xc0 == 64:
		t.Kind = Shared
	default:
		return Target{}, false
	}
	return t, true
}

// Hit is an internal target found in a URL.
type Hit struct {
	URL string
	Target
}

// maxHits bounds what Find returns.
const maxHits = 8

// Find returns the URLs in text whose host is internal, looking also
// inside URLs carried, percent-encoded, in other URLs. It reads text
// once, plus once more for each URL with an encoded URL inside, and
// returns at most maxHits.
func Find(text string) []Hit {
	var hits []Hit
	find(text, &hits, 0)
	return hits
}

func find(text string, hits *[]Hit, depth int) {
	for off := 0; off < len(text) && len(*hits) < maxHits; {
		i := strings.Index(text[off:], "://")
		if i < 0 {
			return
		}
		i += off
		off = i + 3
		if !schemeBefore(text, i) {
			continue
		}
		end := off
		for end < len(text) && !urlEnd(text[end]) {
			end++
		}
		u := text[schemeStart(text, i):end]
		authority := text[off:end]
		if j := strings.IndexAny(authority, "/?#"); j >= 0 {
			authority = authority[:j]
		}
		for _, t := range hosts(authority) {
			*hits = append(*hits, Hit{URL: u, Target: t})
			break
		}
		if depth < 2 && strings.ContainsAny(text[off:end], "%") {
			if dec, ok := unescape(text[off:end]); ok && strings.Contains(dec, "://") {
				find(dec, hits, depth+1)
			}
		}
		off = end
	}
}

// hosts reads the hosts an authority can reach: the host after the last
// "@", and, where a parser could disagree about it, the one before
// (http://127.0.0.1\@example.com, http://10.0.0.1#@example.com).
func hosts(authority string) []Target {
	if dec, ok := unescape(authority); ok {
		authority = dec
	}
	var out []Target
	at := strings.LastIndexByte(authority, '@')
	host := authority[at+1:]
	if t, ok := Host(host); ok {
		if at >= 0 && t.Disguised == "" {
			t.Disguised = "a URL with user-info before the host"
		}
		out = append(out, t)
	}
	if at > 0 {
		before := authority[:at]
		if k := strings.IndexAny(before, `\`); k >= 0 {
			if t, ok := Host(before[:k]); ok {
				t.Disguised = "a host before a backslash and user-info"
				out = append(out, t)
			}
		}
	}
	return out
}

func schemeBefore(s string, i int) bool {
	return i > 0 && isSchemeChar(s[i-1])
}

func schemeStart(s string, i int) int {
	for i > 0 && isSchemeChar(s[i-1]) {
		i--
	}
	return i
}

func isSchemeChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

func urlEnd(c byte) bool {
	return c <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' || c == '|' || c == ')' || c == ','
}

// unescape decodes %XX escapes, reporting whether there were any.
func unescape(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String(), true
}
