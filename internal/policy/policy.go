package policy

import (
	"fmt"
	"slices"
	"strings"
)

// Action is a policy outcome.
type Action string

const (
	Allow Action = "allow"
	Warn  Action = "warn" // allow, and record and alert
	Ask   Action = "ask"
	Deny  Action = "deny"
)

// Valid reports whether s names an action.
func Valid(s string) bool {
	switch Action(s) {
	case Allow, Warn, Ask, Deny:
		return true
	}
	return false
}

// Rules are the configured policy.
type Rules struct {
	DefaultAction Action
	// ToolOverrides maps a tool name, or "server/tool", to an action that
	// wins over flow analysis. "server/tool" wins over a bare name.
	ToolOverrides map[string]Action
	// InternalToExternal applies when data from an internal source goes to
	// an external destination.
	InternalToExternal Action
	// InternalToUnknown applies instead of InternalToExternal when the
	// destination is one flowd could not classify; empty means
	// InternalToExternal.
	InternalToUnknown Action
	// SensitiveDataExternal applies when a secret goes to an external
	// destination.
	SensitiveDataExternal Action
	// AskFallback replaces Ask where nothing can ask the user (proxy-only
	// mode): Warn or Deny.
	AskFallback Action
	// SuspiciousEndpoints are host names (and their subdomains) whose
	// appearance in a call's arguments denies it before anything else.
	SuspiciousEndpoints []string
	// RequireJustification makes data leaving under a flow rule that asks or
	// warns (rather than denies) need the agent's stated reason: a call
	// without a JustificationArg is denied with a request to give one.
	RequireJustification bool
	// PrivateAddresses applies when a call to a destination that fetches
	// for the agent names a loopback, private, link-local or cloud
	// metadata address (server-side request forgery).
	PrivateAddresses Action
	// RiskyCommands applies to a command line with honest uses the user
	// should confirm: code downloaded and run at once (curl … | sh), a
	// local file sent to another host. What has no honest use in an
	// agent's command (a disguised command, a reverse shell, a credential
	// sent out, a cloud metadata address) is denied whatever it says.
	RiskyCommands Action
	// ReadThenSend applies to a call that reaches the network after the
	// session read a credential (a secret file, the environment, a
	// result holding a secret), even when none of its bytes can be
	// matched in the call. After only a result holding a secret it warns,
	// unless the call carries a random-looking payload or names the file
	// the secret came from, or a command of it sends a local file; a
	// command that sends that very file is denied where this asks.
	ReadThenSend Action
	// TaintAction is what a tainted session's data leaving becomes:
	// TaintRaise raises the flow rule's action one level, TaintDeny
	// denies; empty leaves the action as it is.
	TaintAction string
}

// Values of Rules.TaintAction.
const (
	TaintRaise = "raise"
	TaintDeny  = "deny"
)

// Call is a tool call about to happen, with what flowd found out about it.
type Call struct {
	Server string
	Tool   string
	// Message: not a call of a tool but another message to the server
	// (a prompts/get, a notification, an answer to the server's request),
	// whose method Tool names. tool_overrides and default_action speak of
	// tools and do not apply to it; the rules on data leaving do.
	Message bool
	// Lifecycle: a message of the protocol's own that carries no user data
	// (initialize, ping, a listing): a check of it that could not finish
	// in time is no reason to deny it, which would keep the server from
	// starting on a stalled machine. Its secrets and flows still count.
	Lifecycle bool
	// External is whether the destination can send data out of the
	// user's control (external, hybrid, or unknown: what flowd cannot
	// classify is taken to be able to).
	External bool
	// Unclassified is whether the destination is unknown to flowd.
	Unclassified bool
	// Endpoint is a suspicious host found in the arguments.
	Endpoint string
	// Secrets are the secret types in the arguments.
	Secrets []string
	// FlowType and Sources describe the riskiest flow into this call.
	FlowType string
	Sources  []string
	// CanAsk is whether the agent can ask its user (hook mode).
	CanAsk bool
	// AskFallback, when set, replaces Rules.AskFallback for this call: the
	// setting named AskFallbackKey, of an agent that cannot ask.
	AskFallback    Action
	AskFallbackKey string
	// Tainted is whether the session has received content flagged as
	// prompt injection from an external or unknown source; TaintReason
	// says what.
	Tainted     bool
	TaintReason string
	// Justifiable is whether the call can carry a JustificationArg: an MCP
	// call, which flowd can strip of it. The agent's built-in tools cannot.
	Justifiable bool
	// Justification is the call's JustificationArg, if it has one.
	Justification string
	// ArgsBytes and InspectedBytes say how much of the arguments flowd
	// read: when it read less than all, the findings above are partial.
	ArgsBytes, InspectedBytes int
	// Unfinished: the check ran out of time (flow.check_budget) before it
	// had read all of the arguments; the findings above are partial.
	Unfinished bool
	// Overdue: the check was unfinished because the call waited too long
	// in all (flow.wait_budget), not because of its own work.
	Overdue bool

	// Command is the worst finding about a command line the call runs
	// (a hook's Bash, an MCP tool's shell or code argument, a script
	// written where it will run); CommandRule names it, and
	// CommandSevere says it has no honest use.
	Command       string
	CommandRule   string
	CommandSevere bool
	// Executes: the call carries something that runs (a command line, a
	// script written where it will run), which policy reads call by call.
	Executes bool
	// Fetches: the destination fetches what the arguments name for the
	// agent (a fetch tool, WebFetch); InternalAddress is the internal
	// address they name, as a reason, and Metadata says it is a cloud
	// metadata service.
	Fetches         bool
	InternalAddress string
	Metadata        bool
	// SensitiveRead is the credential the session read before this call,
	// when the call reaches the network (see Rules.ReadThenSend).
	// SecretResultOnly: it is only a result that held a secret, which
	// documentation and code do too, so the chain is at most a warning.
	SensitiveRead    string
	SecretResultOnly bool
	// Payload describes the random-looking text the call carries (or its
	// last calls to the same destination carried together) while the
	// session holds a secret of about that length: the secret in a form
	// flowd cannot decode. SecretFile is the file a result holding a
	// secret came from, when the call names it; SecretFileSent: a command
	// line of the call sends that file itself. Either lifts the
	// SecretResultOnly cap.
	Payload        string
	SecretFile     string
	SecretFileSent bool
	// SendsFile: a command line of the call sends a local file itself
	// (an upload, a gist, inline code that opens a file and a URL),
	// which lifts the SecretResultOnly cap too.
	SendsFile bool
	// Injection describes instructions to an AI model found in the
	// arguments at the scanner's block threshold: text the call would
	// plant where another model reads it. InjectionForAgents: the file
	// written is one agents read as their instructions (CLAUDE.md,
	// AGENTS.md, .cursorrules …) or lies where others read (/tmp, a
	// shared folder), which asks; elsewhere it warns, since
	// a security write-up or test fixture quotes attacks too.
	Injection          string
	InjectionForAgents bool
	// Shared is the file a call writes where others read it (a
	// world-readable temporary directory, a web root, a synced folder, a
	// network share), and why: what it holds leaves as it would to an
	// external destination, so Secrets are those of the arguments, and
	// instructions planted there ask as in an agent's instructions file.
	Shared string
	// LostSecret is the secret the session read before flowd lost its
	// flow state (flow.Session.LostSecret), when the call goes to a
	// destination that can send it out: its value was lost, so a Payload
	// the call carries may be it. LostWhy says how it was lost; empty:
	// with the flowd that held it, which ended.
	LostSecret string
	LostWhy    string
	// KeyRead is a file of private key material the call reads: what a
	// tool returns goes into the model's context and to the model's
	// provider, so the read is itself a send (Rules.ReadThenSend decides).
	KeyRead string
}

// publicTypes are the secret types that are public by design
// (secrets.Finding.Public): a wallet address names the user's money, but
// looking one up is an honest use, so sending only these asks rather than
// denies.
var publicTypes = map[string]bool{"crypto_address": true}

// guessedTypes are secret types found by a guess about intent rather than
// by a value's form (a random path segment may be an id a service
// minted): sending only these asks, too.
var guessedTypes = map[string]bool{"encoded_url": true}

// Decision is what to do with a call, and why.
type Decision struct {
	Action Action `json:"action"`
	Reason string `json:"reason,omitempty"`
	Rule   string `json:"rule,omitempty"` // which rule decided, for activity and explain
}

// Decide applies the rules to one call, in this order: suspicious
// endpoints, tool overrides, secrets leaving, internal data leaving, the
// default. Whatever they say, arguments flowd could not read in full, or
// not check in time, do not go to a destination that can send them out.
func (r Rules) Decide(c Call) Decision {
	d := r.decide(c)
	if c.Unfinished && c.Overdue && c.External && !c.Lifecycle && d.Action != Deny {
		return Decision{Action: Deny, Rule: OverdueRule,
			Reason: fmt.Sprintf("could not finish checking this call in time (flow.wait_budget: it waited too long for other messages or the CPU); arguments to %s that flowd has not checked do not leave", dest(c))}
	}
	if c.Unfinished && c.External && !c.Lifecycle && d.Action != Deny {
		return Decision{Action: Deny, Rule: UnfinishedRule,
			Reason: fmt.Sprintf("could not finish checking this call in time (flow.check_budget); arguments to %s that flowd has not checked do not leave", dest(c))}
	}
	if c.Unfinished && c.Shared != "" && !c.External && (d.Action == Allow || d.Action == Warn) {
		return r.final(Decision{Action: Ask, Rule: UnfinishedRule,
			Reason: fmt.Sprintf("could not finish checking in time (flow.check_budget) what %s writes to %s", dest(c), c.Shared)}, c)
	}
	if c.ArgsBytes > c.InspectedBytes && c.External && d.Action != Deny {
		return Decision{Action: Deny, Rule: UninspectedRule,
			Reason: fmt.Sprintf("arguments of %d bytes to external destination (%s) exceed shim.max_inspect_bytes (%d) and cannot be checked; raise the limit to allow such calls", c.ArgsBytes, dest(c), c.InspectedBytes)}
	}
	return d
}

// Standing reports whether d, decided for c, is the decision for every call
// to the same tool on the same server whose arguments name no suspicious
// endpoint: a decision a shim may apply by itself (shimproto.Grant). Only
// an allowed call to a destination that cannot send data out qualifies:
// for it no rule but suspicious_endpoints reads the arguments, since
// secrets, flows, taint, justification and the inspection limit all judge
// data leaving.
func Standing(c Call, d Decision) bool {
	return d.Action == Allow && !c.External && !c.Executes
}

// UninspectedRule names the decision on arguments flowd could not read in
// full.
const UninspectedRule = "shim.max_inspect_bytes"

// KeyReadRule names the decision on a call that reads private key
// material, which policy.read_then_send sets.
const KeyReadRule = "read_then_send.key_material"

// lostWhy says how flowd lost the value of c.LostSecret.
func lostWhy(c Call) string {
	if c.LostWhy != "" {
		return c.LostWhy
	}
	return "the secret's value was lost with the flowd that held it, which restarted"
}

// LostSecretRule names the decision on a call that may carry a secret
// whose value was lost with the flowd that held it.
const LostSecretRule = "sensitive_data_external.lost"

// UnfinishedRule names the decision on arguments flowd could not check in
// time.
const UnfinishedRule = "flow.check_budget"

// OverdueRule names the decision on arguments flowd could not check
// because the call waited too long in all.
const OverdueRule = "flow.wait_budget"

func (r Rules) decide(c Call) Decision {
	if c.Endpoint != "" {
		return Decision{Action: Deny, Rule: "suspicious_endpoints",
			Reason: fmt.Sprintf("Request to suspicious endpoint %s (a known data-collection service) in a call to %s", c.Endpoint, dest(c))}
	}
	if a, ok := r.ToolOverrides[c.Server+"/"+c.Tool]; ok && !c.Message {
		return r.overridden(a, c, c.Server+"/"+c.Tool)
	}
	if a, ok := r.ToolOverrides[c.Tool]; ok && !c.Message {
		return r.overridden(a, c, c.Tool)
	}
	if c.Command != "" && c.CommandSevere {
		return Decision{Action: Deny, Rule: "command." + c.CommandRule,
			Reason: fmt.Sprintf("Command refused in a call to %s: %s", dest(c), c.Command)}
	}
	if c.InternalAddress != "" && (c.Metadata || c.Fetches) && r.PrivateAddresses != "" && r.PrivateAddresses != Allow {
		what := "an address inside your machine or network"
		if c.Metadata {
			what = "the cloud metadata service, which hands out this machine's credentials"
		}
		return r.final(Decision{Action: r.PrivateAddresses, Rule: "private_addresses",
			Reason: fmt.Sprintf("Request to %s (%s) through %s: a fetch made on the agent's behalf must not reach what an outsider cannot (server-side request forgery); "+
				"if you meant it, allow it in policy.tool_overrides or set policy.private_addresses", what, c.InternalAddress, dest(c))}, c)
	}
	if c.External && len(c.Secrets) > 0 && r.SensitiveDataExternal != "" {
		a := r.SensitiveDataExternal
		if a == Deny && !slices.ContainsFunc(c.Secrets, func(t string) bool { return !publicTypes[t] && !guessedTypes[t] }) {
			a = Ask // the user may mean to look the address up, or the id be one
		}
		return r.final(r.justified(r.tainted(Decision{Action: a, Rule: "sensitive_data_external",
			Reason: fmt.Sprintf("Sensitive data (%s) flowing from %s to %s",
				strings.Join(c.Secrets, ", "), source(c), destKind(c))}, c), c), c)
	}
	if c.External && c.LostSecret != "" && c.Payload != "" && r.SensitiveDataExternal != "" && r.SensitiveDataExternal != Allow {
		// The flowd before this one would have matched the secret itself
		// and applied sensitive_data_external: what may be it does the same.
		return r.final(r.tainted(Decision{Action: r.SensitiveDataExternal, Rule: LostSecretRule,
			Reason: fmt.Sprintf("This session read %s, and %s: this call to %s carries %s, which may be it",
				c.LostSecret, lostWhy(c), dest(c), c.Payload)}, c), c)
	}
	if c.External && c.SecretFileSent && c.SensitiveRead != "" && r.ReadThenSend != "" && r.ReadThenSend != Allow {
		a := r.ReadThenSend
		if a == Ask {
			a = Deny // the command sends the very file: no form to guess
		}
		return r.final(r.tainted(Decision{Action: a, Rule: "read_then_send.secret_file",
			Reason: fmt.Sprintf("This call to %s sends the file %s itself, and this session saw it hold a secret (%s)",
				dest(c), c.SecretFile, c.SensitiveRead)}, c), c)
	}
	if c.Shared != "" && len(c.Secrets) > 0 && r.SensitiveDataExternal != "" && r.SensitiveDataExternal != Allow {
		// Ask rather than deny: the user may mean to stage a file there.
		a := r.SensitiveDataExternal
		if a == Deny {
			a = Ask
		}
		return r.final(r.tainted(Decision{Action: a, Rule: "sensitive_data_shared",
			Reason: fmt.Sprintf("Sensitive data (%s) written by %s to %s: others can read it there",
				strings.Join(c.Secrets, ", "), dest(c), c.Shared)}, c), c)
	}
	if c.Command != "" && r.RiskyCommands != "" && r.RiskyCommands != Allow {
		return r.final(r.tainted(Decision{Action: r.RiskyCommands, Rule: "risky_commands." + c.CommandRule,
			Reason: fmt.Sprintf("Command in a call to %s needs your confirmation: %s", dest(c), c.Command)}, c), c)
	}
	if c.Injection != "" {
		a := Warn
		if c.InjectionForAgents || c.Shared != "" {
			a = Ask
		}
		return r.final(Decision{Action: a, Rule: "injection_in_arguments",
			Reason: fmt.Sprintf("The arguments to %s hold instructions aimed at an AI model (%s): the call would put them where another model reads them", dest(c), c.Injection)}, c)
	}
	if c.External && c.FlowType == "internal→external" && c.Unclassified && r.InternalToUnknown != "" {
		return r.final(r.justified(r.tainted(Decision{Action: r.InternalToUnknown, Rule: "internal_to_unknown",
			Reason: fmt.Sprintf("Data from internal source (%s) flowing to %s",
				strings.Join(c.Sources, ", "), destKind(c))}, c), c), c)
	}
	if c.External && c.FlowType == "internal→external" && r.InternalToExternal != "" {
		return r.final(r.justified(r.tainted(Decision{Action: r.InternalToExternal, Rule: "internal_to_external",
			Reason: fmt.Sprintf("Data from internal source (%s) flowing to %s",
				strings.Join(c.Sources, ", "), destKind(c))}, c), c), c)
	}
	if c.KeyRead != "" && r.ReadThenSend != "" && r.ReadThenSend != Allow {
		return r.final(r.tainted(Decision{Action: r.ReadThenSend, Rule: KeyReadRule,
			Reason: fmt.Sprintf("%s reads %s, a private key: what it returns goes into the model's context and to the model's provider", dest(c), c.KeyRead)}, c), c)
	}
	if c.SensitiveRead != "" && r.ReadThenSend != "" && r.ReadThenSend != Allow {
		a, why := r.ReadThenSend, ""
		switch {
		case c.Payload != "":
			why = "; it carries " + c.Payload
		case c.SecretFile != "":
			why = "; it names " + c.SecretFile + ", the file that held it"
		case c.SendsFile:
			why = "; it sends a local file itself"
		case c.SecretResultOnly:
			a = Warn
		}
		return r.final(r.tainted(Decision{Action: a, Rule: "read_then_send",
			Reason: fmt.Sprintf("This session read %s, and this call to %s reaches the network: it may be carrying that secret in a form flowd cannot match%s",
				c.SensitiveRead, dest(c), why)}, c), c)
	}
	a := r.DefaultAction
	if a == "" || c.Message {
		a = Allow
	}
	d := Decision{Action: a, Rule: "default_action"}
	if a != Allow {
		d.Reason = fmt.Sprintf("default_action is %s", a)
	}
	return r.final(d, c)
}

func (r Rules) overridden(a Action, c Call, key string) Decision {
	d := Decision{Action: a, Rule: "tool_overrides." + key}
	if a != Allow {
		d.Reason = fmt.Sprintf("tool %q on server %q is set to %s by policy.tool_overrides", c.Tool, c.Server, a)
	}
	return r.final(d, c)
}

// tainted hardens a flow rule's decision for a session that has read
// content trying to steer the model: the data leaving may be what that
// content asked for.
func (r Rules) tainted(d Decision, c Call) Decision {
	if !c.Tainted || r.TaintAction == "" {
		return d
	}
	a := Deny
	if r.TaintAction == TaintRaise {
		a = raise(d.Action)
	}
	if a == d.Action {
		return d
	}
	why := "this session received content flagged as prompt injection"
	if c.TaintReason != "" {
		why += " (" + c.TaintReason + ")"
	}
	d.Reason += fmt.Sprintf("; %s → %s because %s (injection.taint_action = %q)", d.Action, a, why, r.TaintAction)
	d.Action = a
	d.Rule += "+taint"
	return d
}

// JustificationArg is the argument in which an agent states why data must
// leave, where policy requires it. flowd logs it, shows it to the user it
// asks, and removes it before the call reaches the server.
const JustificationArg = "flowd_justification"

// MaxJustification bounds the stated reason kept and shown, in bytes.
const MaxJustification = 500

// justified denies data leaving without a stated reason when the rules
// require one. The reason is the agent's own claim: it makes an audit trail
// and gives the user something to judge, but proves nothing, so it never
// turns a deny into anything else.
func (r Rules) justified(d Decision, c Call) Decision {
	if !r.RequireJustification || !c.Justifiable || (d.Action != Ask && d.Action != Warn) {
		return d
	}
	if j := strings.TrimSpace(c.Justification); j != "" {
		if len(j) > MaxJustification {
			j = strings.ToValidUTF8(j[:MaxJustification], "") + "…"
		}
		d.Reason += fmt.Sprintf("; the agent's stated reason: %q", j)
		return d
	}
	return Decision{Action: Deny, Rule: d.Rule + "+require_justification",
		Reason: fmt.Sprintf("%s needs a stated reason (policy.require_justification): if the user wants this, "+
			"call the tool again with the same arguments plus %q, a short sentence saying why this data must go to %s",
			d.Reason, JustificationArg, dest(c))}
}

// raise is the next stricter action.
func raise(a Action) Action {
	switch a {
	case Allow:
		return Warn
	case Warn:
		return Ask
	}
	return Deny
}

// final turns Ask into AskFallback where nobody can be asked.
func (r Rules) final(d Decision, c Call) Decision {
	if d.Action != Ask || c.CanAsk {
		return d
	}
	if c.AskFallback != "" {
		d.Action = c.AskFallback
		d.Reason += fmt.Sprintf(" (ask → %s: the agent cannot ask its user; %s decides)", c.AskFallback, c.AskFallbackKey)
		return d
	}
	fb := r.AskFallback
	if fb == "" {
		fb = Warn
	}
	d.Action = fb
	d.Reason += fmt.Sprintf(" (ask → %s: no way to ask the user: no hooks, and the client cannot show a confirmation)", fb)
	return d
}

func source(c Call) string {
	if len(c.Sources) == 0 {
		return "an unknown source"
	}
	kind := "internal"
	if c.FlowType != "" && !strings.HasPrefix(c.FlowType, "internal") {
		kind = "external"
	}
	return fmt.Sprintf("%s source (%s)", kind, strings.Join(c.Sources, ", "))
}

// destKind names the destination with what flowd knows of it.
func destKind(c Call) string {
	if c.Unclassified {
		return fmt.Sprintf("a destination flowd cannot classify (%s), taken as able to send data out; "+
			"if it keeps data local, say so in classify.servers or classify.tools", dest(c))
	}
	return fmt.Sprintf("external destination (%s)", dest(c))
}

func dest(c Call) string {
	if c.Server == "" {
		return c.Tool
	}
	return c.Server
}
