package localapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/localsock"
)

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

func (c *Client) get(path string, v any) error {
	resp, err := c.hc.Get("http://flowd" + path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("flowd: %s: %s", resp.Status, b)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

func (c *Client) Status() (Status, error) {
	var st Status
	err := c.get("/api/v1/status", &st)
	return st, err
}

func (c *Client) Activity(f activity.Filter) ([]activity.Record, error) {
	q := url.Values{}
	for k, v := range map[string]string{"type": f.Type, "session": f.Session, "server": f.Server,
		"risk_level": f.RiskLevel, "flow_type": f.FlowType} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	var recs []activity.Record
	err := c.get("/api/v1/activity?"+q.Encode(), &recs)
	return recs, err
}
