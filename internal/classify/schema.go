package classify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// param is one property of a tool's input schema, with what the schema
// says about it.
type param struct {
	name, description, format string
	// examples are its string "examples", "example" and "default".
	examples []string
}

// Bounds on reading a schema: a tool list is the server's to write, so a
// deep or huge schema must not cost more than a glance.
const (
	maxSchemaDepth  = 4
	maxSchemaParams = 256
)

// schemaParams lists the properties of an input schema, nested objects and
// array items included ("message.to", "recipients[]"), names first-level
// only. A schema flowd cannot read gives none: the tool is then judged by
// what else it shows.
func schemaParams(raw json.RawMessage) []param {
	if len(raw) == 0 {
		return nil
	}
	var root schemaNode
	if json.Unmarshal(raw, &root) != nil {
		return nil
	}
	var out []param
	root.walk(0, &out)
	return out
}

type schemaNode struct {
	Description string                `json:"description"`
	Format      string                `json:"format"`
	Properties  map[string]schemaNode `json:"properties"`
	Items       *schemaNode           `json:"items"`
	Examples    json.RawMessage       `json:"examples"`
	Example     json.RawMessage       `json:"example"`
	Default     json.RawMessage       `json:"default"`
}

// examples are the string values of n's "examples" (an array, or one
// value as some servers write it), "example" and "default", bounded.
func (n *schemaNode) examples() []string {
	var out []string
	add := func(raw json.RawMessage) {
		var one string
		if json.Unmarshal(raw, &one) == nil {
			if len(out) < maxExamples && len(one) <= maxExampleLength {
				out = append(out, one)
			}
			return
		}
		var many []json.RawMessage
		if json.Unmarshal(raw, &many) == nil {
			for _, m := range many {
				if json.Unmarshal(m, &one) == nil && len(out) < maxExamples && len(one) <= maxExampleLength {
					out = append(out, one)
				}
			}
		}
	}
	for _, raw := range []json.RawMessage{n.Examples, n.Example, n.Default} {
		if len(raw) > 0 {
			add(raw)
		}
	}
	return out
}

func (n *schemaNode) walk(depth int, out *[]param) {
	if depth >= maxSchemaDepth {
		return
	}
	names := make([]string, 0, len(n.Properties))
	for name := range n.Properties {
		names = append(names, name)
	}
	sort.Strings(names) // a stable reason, whatever the map order
	for _, name := range names {
		if len(*out) >= maxSchemaParams {
			return
		}
		p := n.Properties[name]
		format, examples := p.Format, p.examples()
		if p.Items != nil {
			if format == "" {
				format = p.Items.Format
			}
			examples = append(examples, p.Items.examples()...)
		}
		*out = append(*out, param{name: name, description: p.Description, format: strings.ToLower(format), examples: examples})
		p.walk(depth+1, out)
		if p.Items != nil {
			p.Items.walk(depth+1, out)
		}
	}
}

// ParseTools reads the result of tools/list (an object with "tools") or a
// bare array of tool definitions into what classification uses.
func ParseTools(data []byte) ([]ToolInfo, error) {
	type tool struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Annotations struct {
			ReadOnlyHint    *bool `json:"readOnlyHint"`
			DestructiveHint *bool `json:"destructiveHint"`
			OpenWorldHint   *bool `json:"openWorldHint"`
		} `json:"annotations"`
	}
	var list []tool
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if err := json.Unmarshal(trimmed, &list); err != nil {
			return nil, fmt.Errorf("read tool list: %w", err)
		}
	} else {
		var r struct {
			Tools []tool `json:"tools"`
		}
		if err := json.Unmarshal(trimmed, &r); err != nil {
			return nil, fmt.Errorf("read tool list (want a tools/list result or an array of tools): %w", err)
		}
		list = r.Tools
	}
	out := make([]ToolInfo, 0, len(list))
	for _, t := range list {
		out = append(out, ToolInfo{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema,
			ReadOnlyHint: t.Annotations.ReadOnlyHint, DestructiveHint: t.Annotations.DestructiveHint,
			OpenWorldHint: t.Annotations.OpenWorldHint})
	}
	return out, nil
}
