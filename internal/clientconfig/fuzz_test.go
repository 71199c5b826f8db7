package clientconfig

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// roundTrip checks, for any doc Wrap accepts: wrapping again changes
// nothing; Unwrap accepts the result and gives every server its command
// line back, and doc byte for byte but where a server had no args (Wrap
// adds them, and an empty list comes back as []) or doc already held
// wrapped servers; and one wrap and unwrap reaches a fixed point.
func roundTrip(t *testing.T, f Format, doc []byte) {
	w, err := f.Wrap(doc, testShim)
	if err != nil {
		return // not a config this format reads
	}
	again, err := f.Wrap(w.Out, testShim)
	if err != nil || again.Changed() {
		t.Fatalf("wrapping twice: %v, %+v\n%q", err, again.Servers, w.Out)
	}
	if !w.Changed() {
		if !bytes.Equal(w.Out, doc) {
			t.Fatalf("nothing wrapped, yet the file changed:\n%q\n%q", doc, w.Out)
		}
		return
	}
	u, err := f.Unwrap(w.Out)
	if err != nil {
		t.Fatalf("unwrap of wrapped: %v\n%q", err, w.Out)
	}
	noArgs := false
	for i, s := range w.Servers {
		if s.Action == Wrapped && !equalLines(u.Servers[i].New, s.Old) {
			t.Fatalf("%s: wrapped %q, unwrapped to %q", s.Name, s.Old, u.Servers[i].New)
		}
		noArgs = noArgs || (s.Action == Wrapped && len(s.Old) == 1)
	}
	if !bytes.Equal(u.Out, doc) && !noArgs {
		base, err := f.Unwrap(doc)
		if err != nil || !base.Changed() {
			t.Fatalf("wrap, unwrap did not give the file back:\n%q\n%q", doc, u.Out)
		}
	}
	w2, err := f.Wrap(u.Out, testShim)
	if err != nil {
		t.Fatalf("wrap of unwrapped: %v\n%q", err, u.Out)
	}
	u2, err := f.Unwrap(w2.Out)
	if err != nil {
		t.Fatalf("unwrap of rewrapped: %v\n%q", err, w2.Out)
	}
	if !bytes.Equal(u2.Out, u.Out) {
		t.Fatalf("no fixed point:\n%q\n%q", u.Out, u2.Out)
	}
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func seed(f *testing.F, files ...string) {
	for _, name := range files {
		b, err := os.ReadFile(filepath.Join("testdata", "clients", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

func FuzzRoundTripTOML(f *testing.F) {
	seed(f, "codex_config.toml")
	f.Add([]byte("[mcp_servers.a]\ncommand = \"x\"\nargs = [\n  'y',\n]\n"))
	f.Fuzz(func(t *testing.T, doc []byte) { roundTrip(t, codexTOML, doc) })
}

func FuzzRoundTripYAML(f *testing.F) {
	seed(f, "continue_config.yaml", "continue_block.yaml")
	f.Add([]byte("mcpServers:\n- name: a\n  command: x\n  args: [y, 'z']\n"))
	f.Fuzz(func(t *testing.T, doc []byte) { roundTrip(t, continueYML, doc) })
}

func FuzzRoundTripJSONC(f *testing.F) {
	seed(f, "vscode_workspace.json", "zed_settings.json", "gemini_settings.json")
	f.Add([]byte("{\"servers\": {\"a\": {\"command\": \"x\", /* c */ \"args\": [\"y\",],},},}"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		roundTrip(t, vscodeJSON, doc)
		roundTrip(t, zedJSON, doc)
	})
}
