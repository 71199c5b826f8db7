package pins

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// pinnedFields are the members of a tool definition a pin covers: all
// that tells the model what the tool is and how to call it.
var pinnedFields = []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations"}

// Tool is one tool definition as pinned or as last seen.
type Tool struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
	// Definition is the canonical JSON of the pinned fields.
	Definition json.RawMessage `json:"definition"`
	Time       time.Time       `json:"time"` // when it was pinned, or first seen as pending
}

// ParseTool reads one tool of a tools/list result into its pinned form.
func ParseTool(raw []byte) (Tool, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return Tool{}, fmt.Errorf("read tool definition: %w", err)
	}
	var name string
	if err := json.Unmarshal(all["name"], &name); err != nil || name == "" {
		return Tool{}, fmt.Errorf("read tool definition: no name")
	}
	kept := map[string]any{}
	for _, f := range pinnedFields {
		v, ok := all[f]
		if !ok {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(v))
		dec.UseNumber() // 1.0 and 1 stay what they were
		var x any
		if err := dec.Decode(&x); err != nil {
			return Tool{}, fmt.Errorf("read tool %s: %s: %w", name, f, err)
		}
		kept[f] = x
	}
	// encoding/json writes map keys sorted, at every level: a canonical
	// form, whatever order and spacing the server used.
	def, err := json.Marshal(kept)
	if err != nil {
		return Tool{}, fmt.Errorf("read tool %s: %w", name, err)
	}
	sum := sha256.Sum256(def)
	return Tool{Name: name, Hash: hex.EncodeToString(sum[:]), Definition: def}, nil
}

// Change is a tool that differs from its pin, or has none.
type Change struct {
	Tool string `json:"tool"`
	// Kind is "new" (no pin) or "changed".
	Kind string `json:"kind"`
	// Fields are the pinned fields that differ, for a changed tool.
	Fields []string `json:"fields,omitempty"`
}

// compare judges a tool as seen against its pin.
func compare(pinned *Tool, seen Tool) (Change, bool) {
	if pinned == nil {
		return Change{Tool: seen.Name, Kind: "new"}, true
	}
	if pinned.Hash == seen.Hash {
		return Change{}, false
	}
	return Change{Tool: seen.Name, Kind: "changed", Fields: Fields(pinned.Definition, seen.Definition)}, true
}

// Fields lists the pinned fields whose values differ between two
// definitions.
func Fields(a, b json.RawMessage) []string {
	var ma, mb map[string]json.RawMessage
	json.Unmarshal(a, &ma)
	json.Unmarshal(b, &mb)
	var out []string
	for _, f := range pinnedFields {
		if !bytes.Equal(ma[f], mb[f]) {
			out = append(out, f)
		}
	}
	return slices.Clip(out)
}
