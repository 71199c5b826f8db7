package classify

import (
	"encoding/json"
	"sort"
	"strings"
)

// param is one property of a tool's input schema, with what the schema
// says about it.
type param struct {
	name, description, format string
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
		format := p.Format
		if format == "" && p.Items != nil {
			format = p.Items.Format
		}
		*out = append(*out, param{name: name, description: p.Description, format: strings.ToLower(format)})
		p.walk(depth+1, out)
		if p.Items != nil {
			p.Items.walk(depth+1, out)
		}
	}
}
