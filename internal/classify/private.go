package classify

import (
	"fmt"
	"strings"
)

// A tool that reads the user's own records is a private source whatever
// the vendor: a bank's list of transactions or a clinic's visit notes
// are as private as a local file, and the query goes to the vendor. Two
// general signals say so, neither a list of vendors: the tool's name asks
// for a kind of record that belongs to a person, or its description says
// whose the data is ("the user's", "your", "the customer's").

// personalRecords are kinds of data that belong to a person.
var personalRecords = set(
	// money
	"account", "balance", "transaction", "statement", "payment", "payee", "card", "invoice", "bill", "salary",
	"payroll", "payslip", "paystub", "tax", "holding", "portfolio", "loan", "mortgage", "claim", "expense",
	"budget", "wallet",
	// health
	"patient", "medical", "health", "diagnosis", "prescription", "medication", "lab", "vaccination", "allergy",
	"symptom", "treatment", "visit",
	// identity and contacts
	"profile", "contact", "address", "identity", "passport", "ssn", "personnel", "employee",
	// communication
	"inbox", "message", "conversation", "dm", "voicemail", "sms", "thread",
	// time and travel
	"calendar", "appointment", "booking", "reservation", "itinerary", "trip", "schedule",
	// commerce and life
	"order", "purchase", "cart", "wishlist", "subscription", "grade", "attendance", "location", "history",
	"photo", "membership")

// owners are who data can belong to in a description's "the X's ...".
var owners = set("user", "users", "customer", "member", "employee", "patient", "client", "owner", "holder",
	"policyholder", "subscriber", "account", "student", "child", "buyer", "traveller", "traveler", "rider",
	"caller", "person", "applicant", "resident", "tenant", "guest", "driver")

// notData follow "your"/"my" without making it about personal data.
var notData = set("query", "question", "request", "input", "prompt", "search", "text", "code", "expression",
	"own", "choice", "needs", "convenience")

// personalWording finds a phrase saying whose data a description is
// about: "the user's", "your", "my", "signed-in", "account holder",
// "personal", "on file".
func personalWording(desc string) string {
	toks := tokens(desc)
	for i, t := range toks {
		next := ""
		if i+1 < len(toks) {
			next = toks[i+1]
		}
		switch {
		case owners[t] && next == "s":
			return t + "'s"
		case (t == "your" || t == "my") && next != "" && !notData[next]:
			return t + " " + next
		case (t == "signed" || t == "logged") && next == "in":
			return t + "-in"
		case t == "account" && next == "holder":
			return "account holder"
		case t == "on" && next == "file":
			return "on file"
		case t == "personal" || t == "private":
			return t
		}
	}
	return ""
}

// privateRead tells whether a tool returns the user's own data, and why.
// A tool whose name only sends (send_message) returns none.
func privateRead(t ToolInfo, writesOnly bool) (string, bool) {
	if writesOnly {
		return "", false
	}
	public := false
	for _, tok := range tokens(t.Description) {
		public = public || tok == "public"
	}
	if !public {
		for _, tok := range tokens(t.Name) {
			if w := singular(tok); personalRecords[w] {
				return fmt.Sprintf("tool %q reads %s records, which belong to a person", t.Name, w), true
			}
		}
	}
	if p := personalWording(t.Description); p != "" {
		return fmt.Sprintf("the description of tool %q says whose data it returns (%q)", t.Name, p), true
	}
	return "", false
}

func singular(tok string) string {
	if personalRecords[tok] || len(tok) <= 3 {
		return tok
	}
	for _, fold := range []struct{ suffix, repl string }{{"ies", "y"}, {"ses", "s"}, {"s", ""}} {
		if base, ok := strings.CutSuffix(tok, fold.suffix); ok && personalRecords[base+fold.repl] {
			return base + fold.repl
		}
	}
	return tok
}

// privateConfidence: what a name or description says about whose data a
// tool returns is a fair guess, not a certainty.
const privateConfidence = 0.7

// applyPrivate makes a tool that reads the user's data at an outside
// service hybrid: its results are private (an origin worth tracking) and
// its arguments go to the service. Inside the user's own stores it changes
// nothing but the reason.
func applyPrivate(f finding, ok bool, why string) (finding, bool) {
	switch {
	case !ok:
		return finding{class: Hybrid, conf: privateConfidence, private: true,
			reason: why + ", at a service flowd does not know, which also receives its arguments"}, true
	case f.class == External:
		f.class = Hybrid
		f.conf = min(f.conf, privateConfidence+agreeBonus)
		f.reason += "; but " + why + ", so its results are private data"
	}
	f.private = true
	return f, true
}
