package flow

import (
	"strings"
	"testing"
)

// What reading a call's short values costs, per KB of ordinary text (the
// verdict waits for it): the values, and with them the dates, which are
// read once the session has read a date of birth.
func BenchmarkSentValues(b *testing.B) {
	text := strings.Repeat("to: m.ortiz@partner.example\nbody: Thanks for the call on 2026-03-17, the invoice INV-2291 for 1,250.00 EUR is attached; "+
		"ring me on 020 7946 0958 or one of the others if anything is unclear. ", 6)[:1024]
	b.Run("values", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for b.Loop() {
			shortValuesWhole(text, true)
		}
	})
	b.Run("dates", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for b.Loop() {
			birthDates(text, false)
		}
	})
}
