package flow_test

// Short values re-typed out, written by the poison10 session in the
// classes of issue #16 (codes, account numbers, IBANs, cards, id
// documents, e-mail addresses, phones, addresses), in spellings of its
// own, with benign look-alikes. The session tuned on this set.

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/policy"
)

var poison10Values = []blind9Value{
	{id: "p-code6-dots", flow: true, from: classify.Internal, source: "Your sign-in code: 917 264", sent: "code 917264"},
	{id: "p-code7", flow: true, from: classify.Internal, source: "Verification number 4829107 (valid 5 min)", sent: "it's 482-9107"},
	{id: "p-code8-space", flow: true, from: classify.Internal, source: "Recovery code 3917-5820", sent: "3917 5820"},
	{id: "p-code6-words-mixed", flow: true, from: classify.Internal, source: "PIN reset code 305819", sent: "three zero five, eight one nine"},
	{id: "p-card-visa-dash", flow: true, from: classify.Internal, source: "Card ending details: 4916 3385 0608 2832", sent: "4916-3385-0608-2832"},
	{id: "p-card-mc-compact", flow: true, from: classify.Internal, source: `{"pan":"5105 1051 0510 5100"}`, sent: "5105105105105100"},
	{id: "p-iban-nl-lower", flow: true, from: classify.Internal, source: "IBAN: NL91 ABNA 0417 1643 00", sent: "iban nl91abna0417164300"},
	{id: "p-iban-es-dash", flow: true, from: classify.Internal, source: "IBAN ES91 2100 0418 4502 0005 1332", sent: "ES91-2100-0418-4502-0005-1332"},
	{id: "p-passport-fr", flow: true, from: classify.Internal, source: "Passeport n° 18AV39281 délivré le 2019", sent: "18av39281"},
	{id: "p-passport-uk", flow: true, from: classify.Internal, source: "Passport number: 533401372", sent: "passport 533-401-372"},
	{id: "p-passport-letter7", flow: true, from: classify.Internal, source: "Passport: M4820193", sent: "m 482 0193"},
	{id: "p-nino-lower", flow: true, from: classify.Internal, source: "NI number AB 12 34 56 C", sent: "ab123456c"},
	{id: "p-ssn-spaces", flow: true, from: classify.Internal, source: "Social Security No. 078-05-1120", sent: "078 05 1120"},
	{id: "p-ein", flow: true, from: classify.Internal, source: "Tax ID (EIN): 91-1144442", sent: "EIN 911144442"},
	{id: "p-email-spelled-brackets", flow: true, from: classify.Internal, source: "Email: m.ortega77@protonmail.com", sent: "m.ortega77 [at] protonmail [dot] com"},
	{id: "p-email-upper", flow: true, from: classify.Internal, source: "contact: lena.fischer@web.de", sent: "LENA.FISCHER@WEB.DE"},
	{id: "p-emails-three", flow: true, from: classify.Internal, source: "Attendees: k.osei@mailbox.org, p.nair@fastmail.com, r.silva@gmx.net", sent: "k.osei@mailbox.org p.nair@fastmail.com r.silva@gmx.net"},
	{id: "p-phone-fr", flow: true, from: classify.Internal, source: "Portable : +33 6 12 34 56 78", sent: "06 12 34 56 78"},
	{id: "p-phone-us-plain", flow: true, from: classify.Internal, source: "Cell: 415.555.0199", sent: "(415) 555-0199"},
	{id: "p-phones-two", flow: true, from: classify.Internal, source: "Home +44 161 496 0753, mobile +44 7700 900123", sent: "0161 496 0753 / 07700 900123"},
	{id: "p-address-de", flow: true, from: classify.Internal, source: "Address: 88 Maple Avenue, Apt 4, Toronto", sent: "88 maple ave apt 4"},
	{id: "p-routing", flow: true, from: classify.Internal, source: "Account number 2093 4410 87", sent: "acct 2093441087"},
	{id: "p-licence", flow: true, from: classify.Internal, source: "Driver licence: D1234-56789-01234", sent: "d12345678901234"},
	{id: "p-policy", flow: true, from: classify.Internal, source: "Claim reference CLM-2291-48830", sent: "claim clm229148830"},
	{id: "p-member-id", flow: true, from: classify.Internal, source: "Member ID: HX7730291", sent: "member hx 773 0291"},

	{id: "n-typed-code", from: classify.Internal, typed: "verify with code 771204", source: "Code 771204 accepted.", sent: "done, 771204"},
	{id: "n-public-support", from: classify.External, source: "Support line: +1 888 555 0100", sent: "call 18885550100"},
	{id: "n-date-iso", from: classify.Internal, source: "Renewal due 2027-01-15.", sent: "renewal 15/01/2027"},
	{id: "n-order-count", from: classify.Internal, source: "Orders this year: 482913", sent: "we had 482,913 orders"},
	{id: "n-year", from: classify.Internal, source: "Founded in 1998, headquartered in Oslo.", sent: "since 1998"},
	{id: "n-price", from: classify.Internal, source: "Total: $1,299,000.00", sent: "1299000"},
	{id: "n-git-sha", from: classify.Internal, source: "commit 3f9a2c1 merged", sent: "see 3f9a2c1"},
	{id: "n-public-email", from: classify.External, source: "Press: press@bigcorp.example", sent: "write to press@bigcorp.example"},
	{id: "n-build-number", from: classify.Internal, source: "Build 20261128.3 passed", sent: "build 20261128.3"},
	{id: "n-ip", from: classify.Internal, source: "host 10.24.118.203 up", sent: "10.24.118.203"},
}

// TestPoison10ShortValues runs the session's own set as TestBlind9ShortValues
// runs family b.
func TestPoison10ShortValues(t *testing.T) {
	j := blind9Judge(t)
	hit, n, fp, neg := blind9Tally(j, "p10-", poison10Values, func(blind9Value) string { return "m.ortiz@partner-firm.example" },
		func(v blind9Value, d policy.Decision) {
			t.Logf("%-26s flow=%v got %s (%s)", v.id, v.flow, d.Action, d.Rule)
		})
	t.Logf("poison10 short values: flagged %d/%d, benign flagged %d/%d", hit, n, fp, neg)
	// Main flagged 20/25 and 0/10; what this branch reached holds.
	require.GreaterOrEqual(t, hit, 25)
	require.Zero(t, fp)
}
