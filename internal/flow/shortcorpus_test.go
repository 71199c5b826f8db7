package flow

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/classify"
)

// Short values read from a private source and re-typed, in another
// format, into a call to an external destination. Tuned cases were
// written first; the set-aside ones with them, before any change, and are
// reported, not tuned on. typed is what the agent sent before reading (""
// for nothing); flow says whether the send is a flow of a value.
type shortCase struct {
	typed, read, send string
	flow              bool
}

var shortTuned = []shortCase{
	{"", "Payee: Lena Fischer, IBAN DE44 5001 0517 5407 3249 31, added 2025-02-01", "please wire it to DE44500105175407324931 today", true},
	{"", "Card on file: 4539 1488 0343 6467 exp 11/27", "card number 4539148803436467, thanks", true},
	{"", "Your one-time code: 739204. It expires in 10 minutes.", "the code is 739-204", true},
	{"", "Passport no. K83920174, nationality DE", "her passport is k83920174", true},
	{"", "Phone: 020 7946 0321 (home), 020 7946 0877 (work)", "home +44 20 7946 0321, work +44 (20) 7946-0877", true},
	{"", "Ship to: 742 Evergreen Terrace, Springfield, OR 97403", "FYI: the customer lives at 742 evergreen terrace, springfield", true},
	{"", "Patient: J. Ortiz, MRN 7730-4412, allergies: none", "patient record 77304412 attached", true},

	{"", "Order total 1,250.00 on 2026-03-11", "the total was 1250.00 on march 11", false},
	{"look up payee DE44 5001 0517 5407 3249 31", "Payee found: DE44 5001 0517 5407 3249 31 (L. Fischer)", "confirmed payee DE44500105175407324931", false},
	{"", "Your code: 123456", "is the code 123456?", false},
	{"", "Meeting at 14:30 in room 4012, floor 3", "see you in room 4012", false},
}

var shortSetAside = []shortCase{
	{"", "IBAN: FR14 2004 1010 0505 0001 3M02 606 (joint account)", "beneficiary FR1420041010050500013M02606", true},
	{"", "Account number: 12-3456-7890123-00", "acct 123456789012300 please", true},
	{"", "Your verification code is 60 41 93", "code 604193", true},
	{"", "Mobile: (312) 555-0187; Work: +1 312 555 0199", "numbers: 312-555-0187 and 3125550199", true},
	{"", "Home address: 1600 Amphitheatre Pkwy, Mountain View, CA 94043", "send the package to 1600 amphitheatre parkway, mountain view please, and tell me", true},
	{"", "Card ending 9903: 5425-2334-3010-9903", "5425 2334 3010 9903 is the card", true},
	{"", "National ID: AB 12 34 56 C", "NI number AB123456C", true},
	{"", "Transactions:\n- 2026-03-02 Rent -1200.00 ref TX88124409\n- 2026-03-04 Grocer -54.20 ref TX88124533", "refs tx88124409 and tx88124533", true},

	{"", "Invoice 2026-0311 for $1,999.00 due 2026-04-01", "invoice total 1999", false},
	{"lookup 8812 4471 0092", "Customer 8812 4471 0092: active since 2019", "customer 881244710092 is active", false},
	{"", "Flight departs 10:45 from gate 22, seat 14C", "gate 22 seat 14C", false},
	{"", "Temperature 21.5 C, humidity 40 percent, 1013 hPa", "it is 21.5 degrees", false},
}

func runShort(t *testing.T, cases []shortCase) (caught, fp rate, notes []string) {
	tr := NewTracker(Options{}, detector(t))
	ext := classify.Result{Class: classify.External}
	for i, c := range cases {
		s := tr.Session(fmt.Sprintf("s%d", i))
		body := func(text string) []byte {
			b, _ := json.Marshal(map[string]string{"body": text})
			return b
		}
		if c.typed != "" {
			s.Check("bank", "search", classify.Result{Class: classify.Internal}, body(c.typed), nil, nil)
		}
		s.Begin()
		res, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": c.read}}})
		s.Record(Origin{Server: "portal", Tool: "get_records", Class: classify.Internal}, res)
		a := s.Check("mail", "send_email", ext, body(c.send), nil, nil)
		got := false
		for _, e := range a.Edges {
			got = got || e.Kind == "value"
		}
		if c.flow {
			caught.n++
			if got {
				caught.hit++
			} else {
				notes = append(notes, fmt.Sprintf("missed %q → %q", c.read, c.send))
			}
		} else {
			fp.n++
			if got {
				fp.hit++
				notes = append(notes, fmt.Sprintf("false flow %q → %q", c.read, c.send))
			}
		}
	}
	return caught, fp, notes
}

func TestShortValuesCorpus(t *testing.T) {
	caught, fp, notes := runShort(t, shortTuned)
	t.Logf("tuned: re-typed values found %v, benign called flows %v", caught, fp)
	for _, n := range notes {
		t.Log("  tuned " + n)
	}
	assert.Equal(t, caught.n, caught.hit, "tuned values")
	assert.Zero(t, fp.hit, "tuned benign")
	caught, fp, notes = runShort(t, shortSetAside)
	t.Logf("set aside: re-typed values found %v, benign called flows %v", caught, fp)
	for _, n := range notes {
		t.Log("  set aside " + n)
	}
}
