package unwrap

import (
	"encoding/base64"
	"strings"
	"testing"
)

// BenchmarkViews measures the views of outgoing arguments of three kinds:
// prose and JSON, a large base64 upload, and a small call.
func BenchmarkViews(b *testing.B) {
	prose := strings.Repeat(`{"id": 4211, "name": "report-2024-03.pdf", "url": "https://files.example.org/d/4211?x=1%202"} The quick brown fox jumps over the lazy dog; total 1,234.56 on 2024-03-11. `, 8000)
	upload := `{"path":"/tmp/a.bin","content":"` + base64.StdEncoding.EncodeToString([]byte(strings.Repeat("binary\x00\x01payload ", 60000))) + `"}`
	small := `{"channel":"#ops","text":"deploy done: https://ci.example.org/runs/4811?tab=logs"}`
	for _, c := range []struct{ name, text string }{{"1MB-prose-json", prose}, {"1MB-base64", upload}, {"small", small}} {
		b.Run(c.name, func(b *testing.B) {
			text := []byte(c.text)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Views(text)
			}
		})
	}
}

// BenchmarkViewsRadixShapes measures the views of text made to cost the
// undoings outside base64's alphabet the most: runs of base58 characters
// as long as one is decoded, and JSON strings of symbol-laden tokens,
// each read as Ascii85 and base85.
func BenchmarkViewsRadixShapes(b *testing.B) {
	b58 := strings.Repeat(strings.Repeat("zQ7k", maxBase58/4)+" ", (1<<20)/(maxBase58+1))
	sym := `{"v":"` + strings.Repeat(`a=b;c<d?e:f>g^h@i!j#k$l%m&n(o)p*q+r-s `, (1<<20)/38) + `"}`
	for _, c := range []struct{ name, text string }{{"1MB-base58-runs", b58}, {"1MB-symbols-json", sym}} {
		b.Run(c.name, func(b *testing.B) {
			text := []byte(c.text)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Views(text)
			}
		})
	}
}
