package daemon

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/hookproto"
	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/policy"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// maxHookBody bounds a hook request: the agent's payload plus a little.
const maxHookBody = 17 << 20

// serveHook judges one agent hook event. PreToolUse checks the call's input
// against the session's origins; PostToolUse records the tool's output as
// an origin and never denies.
func (d *Daemon) serveHook(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	body, err := io.ReadAll(io.LimitReader(r.Body, maxHookBody+1))
	if err != nil || len(body) > maxHookBody {
		http.Error(w, "hook request unreadable or too large", http.StatusRequestEntityTooLarge)
		return
	}
	var req hookproto.Request
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "hook request is not JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	if req.Agent != "claude-code" {
		http.Error(w, fmt.Sprintf("agent %q is not supported", req.Agent), http.StatusBadRequest)
		return
	}
	p, err := claudecode.ParsePayload(req.Payload)
	if err != nil {
		http.Error(w, "hook payload: "+err.Error(), http.StatusBadRequest)
		return
	}
	sess := req.Session.ID()
	d.sawHook(req.Agent)
	ev := hookEvent{agent: req.Agent, event: req.Event, session: sess, p: p}
	v := d.judgeHook(&ev)
	ev.latency = time.Since(start)
	d.recordHook(&ev, v)
	writeJSON(w, v)
}

type hookEvent struct {
	agent, event, session string
	p                     claudecode.Payload
	server, tool          string
	class                 classify.Result
	analysis              flow.Analysis
	decision              policy.Decision
	latency               time.Duration
}

func (d *Daemon) judgeHook(ev *hookEvent) hookproto.Verdict {
	p := ev.p
	set := d.current()
	ev.server, ev.tool = "", p.ToolName
	var input map[string]any
	json.Unmarshal(p.ToolInput, &input) // a tool without a readable input is classified by name
	if server, tool, ok := p.MCPTool(); ok {
		ev.server, ev.tool = server, tool
		ev.class = set.classifier.Tool(server, classify.ToolInfo{Name: tool, Params: keys(input)})
	} else {
		ev.class = set.classifier.AgentTool(p.ToolName, input)
	}
	s := d.flows.Session(ev.session)
	switch ev.event {
	case claudecode.PreToolUse:
		views := unwrap.Views(p.ToolInput)
		ev.analysis = s.Check(ev.server, ev.tool, ev.class, p.ToolInput, views)
		pc := policy.Call{
			Server:   ev.server,
			Tool:     ev.tool,
			External: ev.class.Class == classify.External || ev.class.Class == classify.Hybrid,
			Endpoint: policy.SuspiciousHost(p.ToolInput, views, set.rules.SuspiciousEndpoints),
			Secrets:  ev.analysis.Secrets,
			FlowType: ev.analysis.FlowType,
			Sources:  ev.analysis.Sources,
			CanAsk:   true,
		}
		ev.decision = set.rules.Decide(pc)
		if pc.Endpoint != "" {
			ev.analysis.Risk = flow.RiskCritical
		}
		v := hookproto.Verdict{Decision: string(ev.decision.Action), Reason: ev.decision.Reason}
		// The agent shows the reason to the model and the user without
		// saying who gave it.
		switch ev.decision.Action {
		case policy.Deny:
			v.Reason = jsonrpc.BlockPrefix + v.Reason
		case policy.Ask, policy.Warn:
			v.Reason = "flowd: " + v.Reason
		}
		return v
	case claudecode.PostToolUse:
		if text := p.ResponseText(); text != "" {
			s.Begin()
			server := ev.server
			if server == "" {
				server = ev.tool // an agent tool is its own source: "Read", "WebFetch"
			}
			s.Record(flow.Origin{Server: server, Tool: ev.tool, Method: "hook", Class: ev.class.Class}, []byte(text))
		}
	}
	ev.decision = policy.Decision{Action: policy.Allow}
	return hookproto.Verdict{Decision: string(policy.Allow)}
}

func (d *Daemon) recordHook(ev *hookEvent, v hookproto.Verdict) {
	server := ev.server
	if server == "" {
		server = ev.agent
	}
	d.store.Append(activity.Record{
		Type:          "hook_evaluation",
		Session:       ev.session,
		Server:        server,
		Tool:          ev.tool,
		Method:        ev.event,
		ArgsBytes:     len(ev.p.ToolInput),
		ResultBytes:   len(ev.p.ToolResponse),
		Verdict:       v.Decision,
		Decision:      string(ev.decision.Action),
		Reason:        ev.decision.Reason,
		RiskLevel:     ev.analysis.Risk,
		FlowType:      ev.analysis.FlowType,
		LatencyMicros: ev.latency.Microseconds(),
		Details: mustJSON(struct {
			Agent          string          `json:"agent"`
			Event          string          `json:"event"`
			ToolUseID      string          `json:"tool_use_id,omitempty"`
			AgentSession   string          `json:"agent_session,omitempty"`
			Coverage       string          `json:"coverage"`
			Rule           string          `json:"rule,omitempty"`
			Classification classify.Result `json:"classification"`
			Flow           flow.Analysis   `json:"flow"`
		}{ev.agent, ev.event, ev.p.ToolUseID, ev.p.SessionID, "full", ev.decision.Rule, ev.class, trimEdges(ev.analysis)}),
	})
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// sawHook notes that an agent's hooks are active, for coverage reporting.
func (d *Daemon) sawHook(agent string) {
	d.mu.Lock()
	d.hooksSeen[agent] = time.Now()
	d.mu.Unlock()
}
