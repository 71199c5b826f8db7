package flow

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/cputime"
)

func TestShortValues(t *testing.T) {
	tests := []struct {
		text string
		want []shortValue
	}{
		{"Your verification code is 482913.", []shortValue{{ValueOneTime, "482913"}}},
		{"PIN: 4821 07", []shortValue{{ValueOneTime, "482107"}}},
		{"NHS number: 538 401 9166", []shortValue{{ValueNumber, "5384019166"}}},
		{"Mobile: 538-401-9166", []shortValue{{ValuePhone, "5384019166"}}},
		{"Order no. 482913 shipped", []shortValue{{ValueCode, "482913"}}},
		{"spinning 482913", []shortValue{{ValueCode, "482913"}}},
		{"482913 is your verification code", []shortValue{{ValueOneTime, "482913"}}},
		{"Your verification code is:\n482913", []shortValue{{ValueOneTime, "482913"}}},
		{"验证码：482913", []shortValue{{ValueOneTime, "482913"}}},
		{"Código de pedido: 4829133", []shortValue{{ValueCode, "4829133"}}},
		{"verification sent\nref 482913", []shortValue{{ValueCode, "482913"}}},
		{"acct 0047-3921-8810 balance", []shortValue{{ValueNumber, "004739218810"}}},
		{"Passport: X47120938 exp", []shortValue{{ValueID, "X47120938"}}},
		{"call +44 20 7946 0958 or (415) 555-2671", []shortValue{{ValuePhone, "442079460958"}, {ValuePhone, "4155552671"}}},
		{"mail Dana.Reyes@corp.example.org now", []shortValue{{ValueEmail, "dana.reyes@corp.example.org"}}},
		{"ssn 536-82-9174", []shortValue{{ValueNumber, "536829174"}}},
		{"IBAN DE44 5001 0517 5407 3249 31, added", []shortValue{{ValueID, "DE44500105175407324931"}}},
		{"NI: QR 58 21 94 D", []shortValue{{ValueID, "QR582194D"}}},
		{"MRN 7730-4412", []shortValue{{ValueNumber, "77304412"}}},
		{"your code is 60 41 93", []shortValue{{ValueCode, "604193"}}},
		{"Ship to 742 Evergreen Terrace, Springfield", []shortValue{{ValueAddress, "742 evergreen ter"}}},
		{"at 1600 Amphitheatre Pkwy.", []shortValue{{ValueAddress, "1600 amphitheatre pkwy"}}},
		// Not values: dates, times, versions, amounts, common numbers, ids of code.
		{"passport k83920174 in lower case, as read", nil},
		{"3 blocks down the road, 12 more steps", nil},
		{"on 2024-03-11 at 09:12:44, v1.22.3, total 1,234,567.89", nil},
		{"ts=1711012345 build 20240311 id=123456 pin 000000", nil},
		{"SHA256 HTTP2 UTF8 ISO8601 RFC3339 COVID19 RTX4090", nil},
		{"port 8080 and 65535; page 12 of 400", nil},
		{"hash a3f8b2c1d4e5f6a7b8c9 and uuid 3f8e2a1c-4b5d-6e7f-8a9b-0c1d2e3f4a5b", nil},
		{"rows 12 34 56 78", nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, shortValues(tt.text, false), tt.text)
	}
	// What is sent is read as re-typed: an id in any case.
	assert.Equal(t, []shortValue{{ValueID, "K83920174"}}, shortValues("her passport is k83920174", true))
}

// TestShortValuesRespelled: values in the shapes a re-typing gives them
// or an id document prints them (issue #16).
func TestShortValuesRespelled(t *testing.T) {
	has := func(text string, sending bool, want shortValue) {
		t.Helper()
		assert.Contains(t, shortValues(text, sending), want, text)
	}
	// An address spelled out to dodge a matcher, in words or brackets.
	has("reach her at dana.lee84 at gmail dot com", true, shortValue{ValueEmail, "dana.lee84@gmail.com"})
	has("m.ortega77 [at] protonmail [dot] com", true, shortValue{ValueEmail, "m.ortega77@protonmail.com"})
	has("x.y (AT) mail (DOT) example (DOT) org", true, shortValue{ValueEmail, "x.y@mail.example.org"})
	assert.Empty(t, shortValues("meet at noon, bring the data at last", true))
	// Counting digits between three letters: a national insurance number.
	has("NI: QQ 12 34 56 C", false, shortValue{ValueID, "QQ123456C"})
	assert.Empty(t, shortValues("ref X12345678", false), "one letter before counting digits is typed by anyone")
	// A licence printed in dashed groups after a letter and digits.
	has("Driver licence: D1234-56789-01234", false, shortValue{ValueID, "D12345678901234"})
	has("d12345678901234", true, shortValue{ValueID, "D12345678901234"})
}

// TestWholeValueMessageText: an address that is all of a recipient's
// member is where the call goes; all of a message's body, what it says.
func TestWholeValueMessageText(t *testing.T) {
	for text, want := range map[string]bool{
		"to: bob@example.com":                   true,
		"bob@example.com":                       true,
		"subject: hi\nbody: bob@example.com":    false,
		"message: text: 0612345678":             false,
		"recipient_phone_number: 0612345678":    true,
		"body: call me\nto: bob@example.com\nx": true,
	} {
		_, whole := shortValuesWhole(text, true)
		assert.Equal(t, want, len(whole) > 0, text)
	}
}

func TestShortValuesLeaving(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	ext := classify.Result{Class: classify.External}
	read := func(s *Session, class classify.Class, text string) {
		s.Begin()
		s.Record(Origin{Server: "bank", Tool: "get_profile", Class: class}, []byte(`{"content":[{"type":"text","text":"`+text+`"}]}`))
	}
	send := func(s *Session, text string) Analysis {
		return s.Check("mail", "send", ext, []byte(`{"body":"`+text+`"}`), nil, nil)
	}

	s := tr.Session("read-then-send")
	read(s, classify.Internal, "Name: R. Okafor. Passport X47120938, code 482913, contact r.okafor@mail.example, j.doe@mail.example")
	a := send(s, "the passport number is X47120938")
	if assert.Len(t, a.Edges, 1) {
		assert.Equal(t, "value", a.Edges[0].Kind)
		assert.Equal(t, ValueID, a.Edges[0].Value)
		assert.Equal(t, RiskHigh, a.Risk)
		assert.Equal(t, "internal→external", a.FlowType)
	}
	a = send(s, "code: 482 913")
	if assert.Len(t, a.Edges, 1) {
		assert.Equal(t, RiskMedium, a.Risk, "a six-digit code is less sure")
	}
	assert.Empty(t, send(s, "write to r.okafor@mail.example").Edges, "one address may be the recipient")
	assert.Len(t, send(s, "list: r.okafor@mail.example, j.doe@mail.example").Edges, 2, "several are a list leaving")

	s = tr.Session("typed-first")
	send(s, "search account 7731904426")
	read(s, classify.Internal, "Account 7731904426: 3 payees")
	assert.Empty(t, send(s, "pay from 7731904426").Edges, "the agent typed it first")

	s = tr.Session("public")
	read(s, classify.External, "Support line order 7731904426")
	assert.Empty(t, send(s, "order 7731904426").Edges, "a public result is no private source")
}

// Values written in the shapes blind9 found missed: ids that start with
// digits or a check letter, records with a letter prefix, dot-grouped
// numbers with a dashed check group, numbers spelled as words, dates of
// birth.
func TestShortValuesRetyped(t *testing.T) {
	read := []struct {
		text string
		want []shortValue
	}{
		{"DNI 48203917K — titular", []shortValue{{ValueID, "48203917K"}}},
		{"CPF: 529.982.247-25", []shortValue{{ValueNumber, "52998224725"}}},
		{`"member_id": "SHC-7734-99812"`, []shortValue{{ValueID, "SHC773499812"}}},
		// A year and a serial: a public record's number.
		{"fixed in CVE-2024-12345", nil},
	}
	for _, tt := range read {
		assert.Equal(t, tt.want, shortValues(tt.text, false), tt.text)
	}
	sent := []struct {
		text string
		want []shortValue
	}{
		{"dni 48203917-k", []shortValue{{ValueNumber, "48203917"}, {ValueID, "48203917K"}}},
		{"cpf 52998224725", []shortValue{{ValueNumber, "52998224725"}}},
		{"the code: two six four eight zero three", []shortValue{{ValueCode, "264803"}}},
		{"vier acht zwei neun eins fünf", []shortValue{{ValueCode, "482915"}}},
		{"one two three four five six", nil}, // counting
		{"one of two, then three", nil},
	}
	for _, tt := range sent {
		assert.Equal(t, tt.want, shortValues(tt.text, true), tt.text)
	}

	assert.Equal(t, []shortValue{{ValueBirth, "19840317"}}, birthDates("Date of birth: 1984-03-17\nMRN 1", true))
	assert.Equal(t, []shortValue{{ValueBirth, "19860317"}}, birthDates(`"dob": "03/17/1986"`, true))
	assert.Empty(t, birthDates("Meeting on 2026-03-17", true), "a date with no birth label is no value")
	for _, s := range []string{"born 17/03/1984", "17.03.1984", "March 17, 1984", "17 March 1984", "1984-03-17"} {
		assert.Contains(t, birthDates(s, false), shortValue{ValueBirth, "19840317"}, s)
	}
}

// A lone contact excused as the recipient is one the call sends to: all
// of a member's value, or the only contact the call names.
func TestLoneContactInABodyWithItsOwnRecipient(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	ext := classify.Result{Class: classify.External}
	s := tr.Session("s")
	s.Begin()
	s.Record(Origin{Server: "hr", Tool: "get_employee", Class: classify.Internal},
		[]byte(`{"content":[{"type":"text","text":"Emergency contact: Ella Hart +44 20 7946 0958"}]}`))
	a := s.Check("mail", "send", ext, []byte(`{"to":"m.ortiz@partner.example","body":"call 020 7946 0958"}`), nil, nil)
	if assert.Len(t, a.Edges, 1) {
		assert.Equal(t, ValuePhone, a.Edges[0].Value)
	}
	assert.Empty(t, s.Check("sms", "send", ext, []byte(`{"phone":"+442079460958","message":"running late"}`), nil, nil).Edges,
		"the number is the recipient")
}

// A date of birth read from a private result and re-typed in another
// spelling is a value leaving.
func TestBirthDateLeaving(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	ext := classify.Result{Class: classify.External}
	s := tr.Session("s")
	s.Begin()
	s.Record(Origin{Server: "clinic", Tool: "get_patient", Class: classify.Internal},
		[]byte(`{"content":[{"type":"text","text":"Patient: Dana Lee\nDate of birth: 1984-03-17"}]}`))
	a := s.Check("mail", "send", ext, []byte(`{"body":"born March 17, 1984"}`), nil, nil)
	if assert.Len(t, a.Edges, 1) {
		assert.Equal(t, ValueBirth, a.Edges[0].Value)
		assert.Equal(t, RiskMedium, a.Risk)
	}
	assert.Empty(t, s.Check("mail", "send", ext, []byte(`{"body":"see you on 2026-03-17"}`), nil, nil).Edges)
}

// A code its source labels a credential leaves as a secret does (red
// team RT8-5: a one-time code re-typed to a chat went out with a
// warning); the same digits unlabelled are a value of medium risk, and
// a labelled code met again unlabelled stays a credential.
func TestOneTimeCodeLeavesAsASecret(t *testing.T) {
	ext := classify.Result{Class: classify.External}
	for _, tc := range []struct {
		name, result, send string
		secret             bool
	}{
		{"labelled", "Your one-time code: 604193 (valid 10 minutes)", `{"text":"it is 604-193"}`, true},
		{"spaced", "Verification code 604193", `{"text":"6 0 4 1 9 3"}`, true},
		{"labelled, then plain", "Your sign-in code is 604193\norder 604193 placed", `{"text":"604193"}`, true},
		{"plain", "order 604193 placed", `{"text":"order 604193"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewTracker(Options{}, detector(t)).Session("s")
			s.Begin()
			s.Record(Origin{Server: "mail", Tool: "read_inbox", Class: classify.Internal},
				[]byte(`{"content":[{"type":"text","text":"`+tc.result+`"}]}`))
			a := s.Check("slack", "post", ext, []byte(tc.send), nil, nil)
			require.Len(t, a.Edges, 1)
			if tc.secret {
				assert.Equal(t, []string{ValueOneTime}, a.Secrets)
				assert.Equal(t, RiskHigh, a.Risk)
			} else {
				assert.Empty(t, a.Secrets)
				assert.Equal(t, RiskMedium, a.Risk)
			}
		})
	}
}

// Reading a call's values and dates takes time linear in the call, on the
// shapes that make their readers look ahead: short numbers before words
// (dates spelled with a month), digit words, digits before letters. Four
// times the text costs about four times the CPU, not sixteen (an early
// version lower-cased the rest of the text at each short number).
func TestValuesTimeIsLinear(t *testing.T) {
	if cputime.Process() == 0 {
		t.Skip("skipping: the process's CPU time cannot be read on this system")
	}
	for _, unit := range []string{"12 marching bands ", "17 Mar ", "one two three four ", "48203917-k ", "SHC-7734-99812 ", "1 "} {
		cost := func(size int) time.Duration {
			text := strings.Repeat(unit, size/len(unit)+1)[:size]
			best := time.Duration(1 << 62)
			for range 3 {
				c0 := cputime.Process()
				shortValuesWhole(text, true)
				birthDates(text, false)
				birthDates(text, true)
				best = min(best, cputime.Process()-c0)
			}
			return best
		}
		small, large := cost(256<<10), cost(1<<20)
		ratio := float64(large) / float64(max(small, time.Millisecond))
		assert.LessOrEqual(t, ratio, 10.0, "%q: 256 KB %v, 1 MB %v", unit, small, large)
	}
}
