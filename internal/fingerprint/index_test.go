package fingerprint

import (
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	prose = "The migration plan for the billing cluster moves every tenant to the new ledger service in three waves. " +
		"Wave one covers internal test tenants and starts on Monday after the freeze lifts. " +
		"Wave two moves the small business accounts, whose invoices are regenerated overnight by the reconciliation job. " +
		"Wave three handles enterprise customers and requires sign-off from the finance controller before any cutover."

	goFile = "package ledger\n\nimport \"errors\"\n\n// ErrFrozen is returned while the ledger is frozen for month end.\n" +
		"var ErrFrozen = errors.New(\"ledger frozen for month-end close\")\n\n" +
		"func (l *Ledger) Post(entry Entry) error {\n\tif l.frozen {\n\t\treturn ErrFrozen\n\t}\n" +
		"\tl.entries = append(l.entries, entry)\n\tl.balance += entry.AmountCents\n\treturn nil\n}\n"
)

func newTestIndex(t *testing.T, opts Options) *Index {
	t.Helper()
	x, err := NewIndex(opts)
	require.NoError(t, err)
	return x
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestMatchCatches(t *testing.T) {
	reindented := strings.ReplaceAll(strings.ReplaceAll(goFile, "\t", "    "), "\n", "\r\n")
	edited := strings.Replace(reindented, "l.balance += entry.AmountCents", "l.total += entry.Amount", 1)
	tests := []struct {
		name    string
		origin  string
		args    []byte
		kind    Kind
		atLeast int // minimum Length
	}{{
		name:   "whole plain-text content as an argument",
		origin: prose,
		args:   toolCall(map[string]any{"body": prose}),
		kind:   KindExact, atLeast: len(prose),
	}, {
		name:   "whole JSON result passed on verbatim inside a string",
		origin: string(mcpResult("deploy key rotation finished for cluster west-2")),
		args:   toolCall(map[string]any{"body": string(mcpResult("deploy key rotation finished for cluster west-2"))}),
		kind:   KindExact,
	}, {
		name:   "JSON field copied into another JSON",
		origin: `{"user":{"name":"al","email":"alice.wonderland@example.com","plan":"pro"}}`,
		args:   toolCall(map[string]any{"to": "alice.wonderland@example.com", "subject": "hi"}),
		kind:   KindField, atLeast: 28,
	}, {
		name:   "MCP text field copied whole",
		origin: string(mcpResult(goFile)),
		args:   toolCall(map[string]any{"content": goFile, "path": "gist.go"}),
		kind:   KindField, atLeast: len(goFile),
	}, {
		name:   "field of JSON carried inside a text field",
		origin: string(mcpResult(mustJSON(map[string]string{"name": "vault", "note": "the vault passphrase is purple-elephant-42"}))),
		args:   toolCall(map[string]any{"msg": "the vault passphrase is purple-elephant-42"}),
		kind:   KindField,
	}, {
		name:   "upper-cased and re-spaced",
		origin: string(mcpResult(prose)),
		args:   toolCall(map[string]any{"body": strings.ToUpper(strings.ReplaceAll(prose, " ", "  "))}),
		kind:   KindNormalized,
	}, {
		name:   "re-indented with CRLF line endings",
		origin: string(mcpResult(goFile)),
		args:   toolCall(map[string]any{"content": reindented}),
		kind:   KindNormalized,
	}, {
		name:   "re-serialised JSON: other key order and spacing",
		origin: `{"b":"x","a":[1,2,{"k":"v","j":null}],"c":"short value"}`,
		args:   toolCall(map[string]any{"doc": "{\n  \"a\": [1, 2, {\"j\": null, \"k\": \"v\"}],\n  \"c\": \"short value\",\n  \"b\": \"x\"\n}"}),
		kind:   KindNormalized,
	}, {
		name:   "re-serialised JSON as the arguments themselves",
		origin: `{"name":"send_message","arguments":{"to":"ops","body":"rotate now"}}`,
		args:   []byte(`{ "arguments": { "body": "rotate now", "to": "ops" }, "name": "send_message" }`),
		kind:   KindNormalized,
	}, {
		// 56 bytes of prose, 47 normalised: W+K-1, found at any offset.
		name:   "56-char substring embedded in prose",
		origin: string(mcpResult(prose)),
		args:   toolCall(map[string]any{"body": "Quick update: " + prose[140:196] + " -- let me know if that is fine."}),
		kind:   KindSubstring, atLeast: 32,
	}, {
		name:   "re-indented multi-line file with one line edited",
		origin: string(mcpResult(goFile)),
		args:   toolCall(map[string]any{"content": edited}),
		kind:   KindSubstring, atLeast: 100,
	}, {
		name:   "text JSON-escaped once more inside prose",
		origin: string(mcpResult(goFile)),
		args:   toolCall(map[string]any{"body": "see " + mustJSON(goFile[60:200]) + " for details"}),
		kind:   KindSubstring, atLeast: 80,
	}, {
		name:   "truncated long result still matches its start",
		origin: string(mcpResult(strings.Repeat(prose+" ", 300))),
		args:   toolCall(map[string]any{"body": prose[:120]}),
		kind:   KindSubstring,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newTestIndex(t, Options{})
			x.Add(7, []byte(tt.origin))
			x.Add(8, mcpResult("an unrelated result about weather in Lisbon for the coming week"))
			got := x.Match(tt.args)
			require.Len(t, got, 1, "matches: %+v", got)
			assert.Equal(t, uint64(7), got[0].Origin)
			assert.Equal(t, tt.kind, got[0].Kind)
			assert.GreaterOrEqual(t, got[0].Length, max(tt.atLeast, 20))
			assert.NotEmpty(t, got[0].Hash)
		})
	}
}

func TestMatchIgnores(t *testing.T) {
	tests := []struct {
		name   string
		origin string
		args   []byte
	}{{
		name:   "field shorter than the minimum length",
		origin: `{"user":"al","password":"hunter2-xyzzy-19"}`,
		args:   toolCall(map[string]any{"body": "my password is hunter2-xyzzy-19 ok"}),
	}, {
		name:   "whole content shorter than the minimum length",
		origin: "token: q8Zk2xLp",
		args:   toolCall(map[string]any{"body": "token: q8Zk2xLp"}),
	}, {
		name:   "unrelated text of similar vocabulary",
		origin: string(mcpResult(prose)),
		args: toolCall(map[string]any{"body": "The billing service plan moves each customer to a new ledger in waves. " +
			"Enterprise tenants need finance sign-off; small business invoices are regenerated by a nightly job after the freeze."}),
	}, {
		name:   "MCP envelope alone",
		origin: string(mcpResult("ok")),
		args:   []byte(`{"content":[{"type":"text","text":"something else entirely, nothing shared"}],"isError":false}`),
	}, {
		name:   "same long keys, different values",
		origin: `{"created_at_timestamp_utc":"x","additionalProperties":"y","description_for_model":"z"}`,
		args:   toolCall(map[string]any{"created_at_timestamp_utc": "a", "additionalProperties": "b", "description_for_model": "c"}),
	}, {
		name:   "keys of the origin written as prose",
		origin: `{"created_at_timestamp_utc":"x","additionalProperties":"y","description_for_model":"z"}`,
		args:   toolCall(map[string]any{"body": "created_at_timestamp_utc additionalProperties description_for_model"}),
	}, {
		name:   "numbers, ids and timestamps",
		origin: `{"id":"12345678901234567890123","ts":"2024-05-01T12:00:00.000Z","n":1234567890123456789012}`,
		args:   toolCall(map[string]any{"id": "12345678901234567890123", "since": "2024-05-01T12:00:00.000Z", "n": json.Number("1234567890123456789012")}),
	}, {
		name:   "a rule of dashes and padding",
		origin: string(mcpResult(strings.Repeat("-", 80) + "\n" + strings.Repeat("A", 80) + "==")),
		args:   toolCall(map[string]any{"body": strings.Repeat("-", 60) + " and " + strings.Repeat("A", 60)}),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := newTestIndex(t, Options{})
			x.Add(7, []byte(tt.origin))
			assert.Empty(t, x.Match(tt.args))
		})
	}
}

// Every tool result shares the envelope; sharing it must not tie an
// argument to all of them.
func TestMatchPicksTheRightOrigin(t *testing.T) {
	x := newTestIndex(t, Options{})
	c := newCorpus(1)
	results := make([][]byte, 200)
	for i := range results {
		results[i] = c.result()
		x.Add(uint64(i), results[i])
	}
	var env struct {
		Content []struct{ Text string } `json:"content"`
	}
	require.NoError(t, json.Unmarshal(results[123], &env))
	text := env.Content[0].Text
	got := x.Match(toolCall(map[string]any{"body": "fyi: " + text[1000:1200]}))
	require.NotEmpty(t, got)
	assert.Equal(t, uint64(123), got[0].Origin)
	assert.Equal(t, KindSubstring, got[0].Kind)
	assert.GreaterOrEqual(t, got[0].Length, 120)

	fresh := newCorpus(2)
	for range 50 {
		assert.Empty(t, x.Match(toolCall(map[string]any{"body": fresh.prose(4000)})))
	}
}

// Windows are looked up keyChunk at a time and hits chained as they come:
// a stretch across a chunk's edge is one stretch, as long as it is, and
// the memory of a large argument's match does not grow with its hits.
func TestMatchAcrossKeyChunks(t *testing.T) {
	x := newTestIndex(t, Options{})
	c := newCorpus(3)
	piece := c.prose(3000)
	x.Add(7, mcpResult(piece))
	for _, at := range []int{keyChunk - 1500, keyChunk - 40, 3 * keyChunk} {
		pad := strings.Repeat("0123456789", at/10+1)[:at] // normalises to itself
		got := x.Match([]byte(pad + piece + pad))
		require.NotEmpty(t, got, "at %d", at)
		assert.Equal(t, uint64(7), got[0].Origin)
		// The index keeps windows of the normalised piece, which drops
		// its spaces; the stretch found spans nearly all of them.
		assert.GreaterOrEqual(t, got[0].Length, len(normalize(nil, []byte(piece)))-2*defaultW-defaultK, "at %d", at)
	}

	// A 4 MB argument made of the origin over and over: every window hits.
	big := []byte(strings.Repeat(piece, 4<<20/len(piece)))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	x.Match(big)
	runtime.ReadMemStats(&after)
	// The decoded and the normalised text, and bounded scratch.
	assert.LessOrEqual(t, after.TotalAlloc-before.TotalAlloc, uint64(2*len(big)+1<<20))
}

func TestEvictsOldest(t *testing.T) {
	x := newTestIndex(t, Options{MaxOrigins: 20})
	texts := make([]string, 500)
	c := newCorpus(6)
	for i := range texts {
		texts[i] = c.sentence() + " " + c.sentence()
		x.Add(uint64(i), mcpResult(texts[i]))
		require.LessOrEqual(t, x.Len(), 20)
	}
	assert.Equal(t, 20, x.Len())
	for i, s := range texts {
		got := x.Match(toolCall(map[string]any{"body": s}))
		if i < len(texts)-20 {
			assert.Empty(t, got, "evicted origin %d still matches", i)
			continue
		}
		require.Len(t, got, 1, "origin %d", i)
		assert.Equal(t, uint64(i), got[0].Origin)
		assert.Equal(t, KindField, got[0].Kind)
	}
	// Purges keep the tables from growing with the number of additions.
	assert.Less(t, len(x.grams.cells), 4096)
	assert.Less(t, len(x.units.cells), 1024)
}

func TestMaxHashBytes(t *testing.T) {
	x := newTestIndex(t, Options{MaxHashBytes: 1024})
	head := strings.Repeat("alpha bravo charlie delta echo foxtrot ", 40)
	tail := "the tail paragraph that lies beyond the hashing limit entirely"
	x.Add(1, mcpResult(head+tail))
	assert.Empty(t, x.Match(toolCall(map[string]any{"body": tail})))
	require.NotEmpty(t, x.Match(toolCall(map[string]any{"body": head[:200]})))
}

func TestNewestOriginWins(t *testing.T) {
	x := newTestIndex(t, Options{})
	x.Add(1, mcpResult(prose))
	x.Add(2, mcpResult(prose))
	got := x.Match(toolCall(map[string]any{"body": prose}))
	require.Len(t, got, 1)
	assert.Equal(t, uint64(2), got[0].Origin)
}

// An origin from an external source never takes a hash from a live one
// that is not: a page that repeats the user's data does not hide where
// it came from. The other way round, the newest still wins.
func TestExternalOriginDoesNotTakeOver(t *testing.T) {
	x := newTestIndex(t, Options{})
	x.Insert(1, x.Prepare(mcpResult(prose)), false)
	x.Insert(2, x.Prepare(mcpResult("a page that quotes it: "+prose)), true)
	x.Insert(3, x.Prepare(mcpResult(prose)), true)
	for _, args := range [][]byte{toolCall(map[string]any{"body": prose}), toolCall(map[string]any{"body": prose[20:300]})} {
		got := x.Match(args)
		require.NotEmpty(t, got)
		assert.Equal(t, uint64(1), got[0].Origin, "%s", args)
	}
	x.Insert(4, x.Prepare(mcpResult(prose)), false)
	assert.Equal(t, uint64(4), x.Match(toolCall(map[string]any{"body": prose}))[0].Origin)
}

// Each kind of source has MaxOrigins of its own: external origins evict
// only external ones.
func TestEvictionByKind(t *testing.T) {
	x := newTestIndex(t, Options{MaxOrigins: 50})
	x.Insert(1, x.Prepare(mcpResult(prose)), false)
	for i := range 500 {
		x.Insert(uint64(100+i), x.Prepare(mcpResult(fmt.Sprintf("external result number %d with some words in it", i))), true)
	}
	assert.Equal(t, 51, x.Len())
	got := x.Match(toolCall(map[string]any{"body": prose[10:200]}))
	require.NotEmpty(t, got)
	assert.Equal(t, uint64(1), got[0].Origin)
	for i := range 50 {
		x.Add(uint64(1000+i), mcpResult(fmt.Sprintf("internal result number %d with other words in it", i)))
	}
	assert.Empty(t, x.Match(toolCall(map[string]any{"body": prose[10:200]})), "50 newer internal origins evict it")
	assert.Equal(t, 100, x.Len())
}

// ForgetExternal drops the external origins, keeps the others and gives
// memory back.
func TestForgetExternal(t *testing.T) {
	x := newTestIndex(t, Options{})
	c := newCorpus(5)
	x.Add(1, mcpResult(prose))
	var page string
	for i := range 2000 {
		page = c.prose(2000)
		x.Insert(uint64(10+i), x.Prepare(mcpResult(page)), true)
	}
	before := x.Bytes()
	x.ForgetExternal()
	assert.Equal(t, 1, x.Len())
	assert.Less(t, x.Bytes(), before/4)
	assert.Empty(t, x.Match(toolCall(map[string]any{"body": page[100:400]})))
	got := x.Match(toolCall(map[string]any{"body": prose[10:200]}))
	require.NotEmpty(t, got)
	assert.Equal(t, uint64(1), got[0].Origin)
}

func TestOptions(t *testing.T) {
	for _, o := range []Options{
		{MaxOrigins: -1}, {MaxOrigins: LimitMaxOrigins + 1}, {MaxHashBytes: -5},
		{MinLength: -1}, {K: 4}, {K: 2000}, {W: -1},
	} {
		_, err := NewIndex(o)
		assert.Error(t, err, "%+v", o)
	}
	x := newTestIndex(t, Options{})
	assert.Equal(t, Options{MaxOrigins: 10_000, MaxHashBytes: 65_536, MinLength: 20, K: 32, W: 16}, x.opts)
}

// The guarantee behind substring matching: every stretch of W+K-1
// informative normalised bytes an origin shares is found, at any offset.
func TestSubstringGuarantee(t *testing.T) {
	x := newTestIndex(t, Options{})
	c := newCorpus(3)
	text := c.code(3000)
	x.Add(1, mcpResult(text))
	norm := normalize(nil, []byte(text))
	k, n := x.opts.K, x.opts.W+x.opts.K-1
	keys, _ := gramKeys(nil, nil, norm, k, nil)
	tested := 0
	for off := 0; off+n <= len(norm); off++ {
		if slices.Contains(keys[off:off+n-k+1], 0) {
			continue // an uninformative window may be the one kept
		}
		tested++
		got := x.Match(toolCall(map[string]any{"body": "zq " + string(norm[off:off+n]) + " qz"}))
		require.NotEmpty(t, got, "offset %d: %q", off, norm[off:off+n])
	}
	assert.Greater(t, tested, len(norm)/2)
}

func TestConcurrentUse(t *testing.T) {
	x := newTestIndex(t, Options{MaxOrigins: 50})
	c := newCorpus(4)
	results := make([][]byte, 200)
	for i := range results {
		results[i] = c.result()
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := g; i < len(results); i += 4 {
				x.Add(uint64(i), results[i])
				x.Match(results[(i*7)%len(results)])
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 50, x.Len())
}
