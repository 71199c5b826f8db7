package injection

import (
	"encoding/json"
	"fmt"
)

// ToolFinding is the verdict on one tool of a tools/list result.
type ToolFinding struct {
	Tool   string `json:"tool"`
	Result Result `json:"result"`
}

// ScanTools scans a tools/list result for tool poisoning: every string of
// each tool (name, description, input and output schemas, annotations) is
// scanned with Context.Tool set to the tool's name. Field paths are
// relative to the tool ("inputSchema.properties.path.description"). It
// returns the tools with at least one detection, in list order.
func (s *Scanner) ScanTools(toolsList []byte, ctx Context) ([]ToolFinding, error) {
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(toolsList, &list); err != nil {
		return nil, fmt.Errorf("scan tools/list result: %w", err)
	}
	states := make([]*scanState, len(list.Tools))
	for i, t := range list.Tools {
		c := ctx
		c.Tool = t.Name
		states[i] = s.newState(c)
		states[i].toolSchema = true
	}
	err := walkJSON(toolsList, func(p *jsonPath, _ span, v string) bool {
		if len(p.elems) < 3 || p.elems[0].key != "tools" || p.elems[1].index < 0 || p.elems[1].index >= len(states) {
			return true
		}
		rel := &jsonPath{elems: p.elems[2:]}
		states[p.elems[1].index].scanString(v, rel.String, p.lastKey(), 0, false)
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("scan tools/list result: %w", err)
	}
	var out []ToolFinding
	for i, st := range states {
		r := st.finish()
		if len(r.Detections) > 0 || len(r.Waived) > 0 {
			out = append(out, ToolFinding{Tool: list.Tools[i].Name, Result: r})
		}
	}
	return out, nil
}
