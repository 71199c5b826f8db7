package flowdclient

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/attackfeed"
	"github.com/flowd-dev/flowd/internal/attackprint"
	"github.com/flowd-dev/flowd/internal/boltfile"
	"github.com/flowd-dev/flowd/internal/exporter"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/pins"
	"github.com/flowd-dev/flowd/internal/quarantine"
	"github.com/flowd-dev/flowd/internal/service"
	"github.com/flowd-dev/flowd/internal/sessiongraph"
)

// HeldLost says until when, and why, every session that starts is
// judged as carrying internal data (heldfile.Decide).
type HeldLost struct {
	Until time.Time `json:"until"`
	Why   string    `json:"why"`
}

// Status is what `flowd status` shows.
type Status struct {
	Running   bool           `json:"running"`
	Version   string         `json:"version,omitempty"`
	PID       int            `json:"pid,omitempty"`
	Started   time.Time      `json:"started,omitzero"`
	UptimeSec int64          `json:"uptime_seconds,omitempty"`
	Socket    string         `json:"socket"`
	DataDir   string         `json:"data_dir,omitempty"`
	Shims     []Shim         `json:"shims"`
	Sessions  []string       `json:"sessions"`
	Activity  activity.Stats `json:"activity"`
	// SecurityCoverage is "full" when an agent's hooks have reported
	// recently (flowd sees the agent's own tools), else "proxy_only".
	SecurityCoverage string `json:"security_coverage"`
	// HooksActive maps each agent with recent hook events to the last one.
	HooksActive map[string]time.Time `json:"hooks_active"`
	// DamagedStores are the stores flowd found damaged when it started:
	// moved aside, and replaced with fresh ones.
	DamagedStores []boltfile.Damage `json:"damaged_stores,omitempty"`
	// HeldLost is set while every session that starts is judged as
	// carrying internal data, since flowd could not tell which sessions
	// read data before it started.
	HeldLost *HeldLost `json:"held_sessions_lost,omitempty"`
	// PinsUntrusted is set since tool pins were lost with a damaged file:
	// no server is trusted on first use any more.
	PinsUntrusted *pins.Untrusted `json:"pins_untrusted,omitempty"`
	// ApprovalPassphrase: the asking user has set the passphrase that
	// releasing and approving need.
	ApprovalPassphrase bool `json:"approval_passphrase_set"`
	// PassphraseSince and PassphraseBy say when the passphrase was set
	// and by which process (and the ones it descends from), so that a
	// passphrase the user did not set shows.
	PassphraseSince time.Time `json:"approval_passphrase_since,omitzero"`
	PassphraseBy    string    `json:"approval_passphrase_by,omitempty"`
	// ConfigHeld is the config flowd held back because it lowers
	// protection, waiting for flowd config apply.
	ConfigHeld *HeldConfig `json:"config_held,omitempty"`
	// Audit is the activity log's audit chain check flowd ran as it
	// started (the records since the last signed checkpoint).
	Audit *AuditCheck `json:"audit,omitempty"`
	// Export is the syslog exporter's state, when it is on or has sent.
	Export *exporter.Status `json:"export,omitempty"`
	// OTLP is the OpenTelemetry exporter's state, when it is on, has
	// sent, or keeps records in its spool.
	OTLP *exporter.Status `json:"otlp_export,omitempty"`
	// Feeds are the attack feeds flowd pulls, each with its last good
	// feed and its last failure.
	Feeds []attackfeed.Status `json:"feeds,omitempty"`
	// Service is how this flowd runs, and flowd's service as the
	// machine's service manager sees it.
	Service *Service `json:"service,omitempty"`
	// Config is the config in force.
	Config *ConfigInEffect `json:"config,omitempty"`
}

// Service is how a flowd runs: what started it (service.StartedBy) and
// the state of flowd's service under the machine's service manager
// (installed, enabled, running, or why there is none).
type Service struct {
	StartedBy string `json:"started_by,omitempty"`
	service.Status
}

// ConfigInEffect is the config a flowd decides with: the file it was
// read from ("" where the defaults are in force), whether this is a
// user's flowd or the machine's, and the key settings (the rest:
// flowd config show --effective).
type ConfigInEffect struct {
	File     string            `json:"file"`
	Mode     string            `json:"mode"` // "user" or "system"
	Settings map[string]string `json:"settings"`
}

// AuditCheck is a check of the activity log's audit chain.
type AuditCheck struct {
	Verified bool             `json:"verified"`
	Report   *activity.Report `json:"report,omitempty"`
	// Error is why the check could not run, or why nothing is signed.
	Error string `json:"error,omitempty"`
}

// Shim is one connected shim.
type Shim struct {
	ID        uint64    `json:"id"`
	Server    string    `json:"server"`
	Session   string    `json:"session"`
	PID       int       `json:"pid"`
	Command   []string  `json:"command"`
	Connected time.Time `json:"connected"`
	Messages  uint64    `json:"messages"`
	// Forwarded counts the calls the shim sent on under a grant, without
	// waiting for a verdict (among Messages).
	Forwarded uint64 `json:"forwarded,omitempty"`
	// Granted are the tools whose calls the shim forwards without waiting
	// for a verdict (shimproto.Grant).
	Granted []string `json:"granted,omitempty"`
}

// Error is flowd's answer when it refused a request: flowd runs, and
// said no.
type Error struct {
	Status  string // "404 Not Found"
	Code    int
	Message string
}

func (e *Error) Error() string {
	if e.Message != "" {
		return e.Message
	}
	return "flowd answered " + e.Status
}

// Client talks to flowd over its socket.
type Client struct {
	Socket string
	hc     *http.Client
}

func NewClient(socket string, timeout time.Duration) *Client {
	return &Client{Socket: socket, hc: &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return localsock.Dial(socket, timeout)
		}},
	}}
}

// NewFlowdClient is NewClient for requests that carry what only flowd
// may read, the approval passphrase the user types: it talks only to the
// flowd binary flowd names (localsock.DialFlowd), not to a program of the
// user's listening in its place to collect the passphrase.
func NewFlowdClient(socket string, timeout time.Duration, flowd string) *Client {
	return &Client{Socket: socket, hc: &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return localsock.DialFlowd(socket, timeout, flowd)
		}},
	}}
}

func (c *Client) get(path string, v any) error {
	return c.do(http.MethodGet, path, nil, v)
}

func (c *Client) post(path string, body, v any) error {
	return c.do(http.MethodPost, path, body, v)
}

func (c *Client) do(method, path string, body, v any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, "http://flowd"+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		// Not Go's `Get "http://flowd/…": dial unix …`: the socket and why.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("no answer from flowd on %s: %w", c.Socket, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return refusal(resp)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

func (c *Client) Status() (Status, error) {
	var st Status
	err := c.get("/api/v1/status", &st)
	return st, err
}

func (c *Client) Activity(f activity.Filter) ([]activity.Record, error) {
	var recs []activity.Record
	err := c.get("/api/v1/activity?"+query(f).Encode(), &recs)
	return recs, err
}

// AuditVerify has flowd check its activity log's audit chain, from the
// record with ID from on (0: all of it), against pub (nil: flowd's own
// audit key).
func (c *Client) AuditVerify(from uint64, pub ed25519.PublicKey) (activity.Report, error) {
	q := url.Values{}
	if from != 0 {
		q.Set("from", strconv.FormatUint(from, 10))
	}
	if pub != nil {
		q.Set("key", base64.RawURLEncoding.EncodeToString(pub))
	}
	var rep activity.Report
	err := c.get("/api/v1/audit/verify?"+q.Encode(), &rep)
	return rep, err
}

// Export streams the records f selects to w, oldest first, as JSON lines
// or CSV (format "jsonl" or "csv"); flows includes each record's details.
func (c *Client) Export(f activity.Filter, format string, flows bool, w io.Writer) error {
	q := query(f)
	q.Del("limit")
	q.Set("format", format)
	if flows {
		q.Set("include_flows", "true")
	}
	// No overall timeout: an export of the whole store takes as long as
	// it takes; the dial still has one.
	hc := *c.hc
	hc.Timeout = 0
	resp, err := hc.Get("http://flowd/api/v1/activity/export?" + q.Encode())
	if err != nil {
		return fmt.Errorf("no answer from flowd on %s: %w", c.Socket, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return refusal(resp)
	}
	_, err = io.Copy(w, resp.Body)
	return err
}

// refusal is flowd's answer other than 200 OK, as an *Error.
func refusal(resp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return &Error{Status: resp.Status, Code: resp.StatusCode, Message: strings.TrimSpace(string(b))}
}

// query is f as the activity API's query parameters.
func query(f activity.Filter) url.Values {
	q := url.Values{}
	for k, v := range map[string]string{"type": f.Type, "session": f.Session, "server": f.Server, "tool": f.Tool,
		"risk_level": f.RiskLevel, "flow_type": f.FlowType} {
		if v != "" {
			q.Set(k, v)
		}
	}
	for k, t := range map[string]time.Time{"since": f.Since, "until": f.Until} {
		if !t.IsZero() {
			q.Set(k, t.Format(time.RFC3339Nano))
		}
	}
	for k, n := range map[string]uint64{"before": f.Before, "after": f.After} {
		if n != 0 {
			q.Set(k, strconv.FormatUint(n, 10))
		}
	}
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	return q
}

// Recommendation is one thing a running flowd sees that its user should
// act on (GET /api/v1/diagnostics): a stable ID that dashboards and
// scripts may key on, how much it matters, what is wrong and the command
// or config line that fixes it.
type Recommendation struct {
	ID       string `json:"id"`
	Severity string `json:"severity"` // info, warning, error
	Message  string `json:"message"`
	Fix      string `json:"fix,omitempty"`
}

// Diagnostics lists what flowd recommends its user act on.
func (c *Client) Diagnostics() ([]Recommendation, error) {
	var body struct {
		Recommendations []Recommendation `json:"recommendations"`
	}
	err := c.get("/api/v1/diagnostics", &body)
	return body.Recommendations, err
}

// SessionGraph draws one session's flows.
func (c *Client) SessionGraph(session string) (sessiongraph.Graph, error) {
	var g sessiongraph.Graph
	err := c.get("/api/v1/sessions/"+url.PathEscape(session)+"/graph", &g)
	return g, err
}

// Record returns one activity record.
func (c *Client) Record(id uint64) (activity.Record, error) {
	var r activity.Record
	err := c.get("/api/v1/activity/"+strconv.FormatUint(id, 10), &r)
	return r, err
}

// Quarantine lists quarantined results, newest first, as metadata:
// without content or excerpts.
func (c *Client) Quarantine() ([]quarantine.Item, error) {
	var items []quarantine.Item
	err := c.get("/api/v1/quarantine", &items)
	return items, err
}

// QuarantineItem returns one quarantined result's metadata.
func (c *Client) QuarantineItem(id string) (quarantine.Item, error) {
	var it quarantine.Item
	err := c.get("/api/v1/quarantine/"+url.PathEscape(id), &it)
	return it, err
}

// QuarantineContent returns one quarantined result with what it says:
// its content and the detections' excerpts. Reading it puts the withheld
// text before whoever reads it, a model too, so like Release it needs
// the approval passphrase, which the CLI reads at the terminal.
func (c *Client) QuarantineContent(id, passphrase string) (quarantine.Item, error) {
	var it quarantine.Item
	err := c.post("/api/v1/quarantine/"+url.PathEscape(id)+"/view", Release{Passphrase: passphrase}, &it)
	return it, err
}

// Release releases a quarantined result: the same content from the same
// server passes from now on. Only a human may decide this: it needs the
// approval passphrase, which the CLI reads at the terminal.
func (c *Client) Release(id, passphrase string) (quarantine.Item, error) {
	var it quarantine.Item
	err := c.post("/api/v1/quarantine/"+url.PathEscape(id)+"/release", Release{Passphrase: passphrase}, &it)
	return it, err
}

// SetPassphrase sets the approval passphrase, or changes it (old is the
// current one).
func (c *Client) SetPassphrase(old, new string) error {
	return c.post("/api/v1/passphrase", PassphraseChange{Old: old, New: new}, &struct{}{})
}

// Pins lists the pinned servers.
func (c *Client) Pins() ([]pins.Server, error) {
	var list []pins.Server
	err := c.get("/api/v1/pins", &list)
	return list, err
}

// Approve approves pending tool changes; like Release, a human's call.
func (c *Client) Approve(a Approval) (Approved, error) {
	var out Approved
	err := c.post("/api/v1/pins/approve", a, &out)
	return out, err
}

// UILogin asks for a one-time URL that logs a browser in to the
// dashboard as the asking user; flowd answers it on its socket only.
func (c *Client) UILogin() (string, error) {
	var out struct {
		URL string `json:"url"`
	}
	err := c.post("/api/v1/ui/login", struct{}{}, &out)
	return out.URL, err
}

// FeedImport carries a feed file of attack prints to import, as written.
type FeedImport struct {
	Feed []byte `json:"feed"`
}

// FeedImported is what an import did.
type FeedImported struct {
	Prints  int `json:"prints"`  // in the feed, usable
	Added   int `json:"added"`   // new to this flowd
	Skipped int `json:"skipped"` // not shaped as flowd makes prints
	Total   int `json:"total"`   // prints this flowd holds now
}

// AttackPrints lists the prints of known attacks.
func (c *Client) AttackPrints() ([]attackprint.Print, error) {
	var list []attackprint.Print
	err := c.get("/api/v1/attack-prints", &list)
	return list, err
}

// ImportFeed imports a signed feed of attack prints.
func (c *Client) ImportFeed(feed []byte) (FeedImported, error) {
	var out FeedImported
	err := c.post("/api/v1/attack-prints/import", FeedImport{Feed: feed}, &out)
	return out, err
}
