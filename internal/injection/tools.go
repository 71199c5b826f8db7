package injection

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ToolFinding is the verdict on one tool of a tools/list result.
type ToolFinding struct {
	Tool   string `json:"tool"`
	Result Result `json:"result"`
}

// ScanTools scans a tools/list result for tool poisoning: every string of
// each tool (name, description, input and output schemas, annotations) is
// scanned with Context.Tool set to the tool's name. Field paths are
// relative to the tool ("inputSchema.properties.path.description").
// Context.SessionTools, for a list, are the tools of the session's other
// servers. It returns the tools with at least one detection, in list
// order.
func (s *Scanner) ScanTools(toolsList []byte, ctx Context) ([]ToolFinding, error) {
	var list struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(toolsList, &list); err != nil {
		return nil, fmt.Errorf("scan tools/list result: %w", err)
	}
	names := make([]string, len(list.Tools))
	listed := map[string]bool{}
	for i, raw := range list.Tools {
		var t struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(raw, &t) == nil {
			names[i] = t.Name
			listed[strings.ToLower(t.Name)] = true
		}
	}
	// The session's other servers' tools are what a definition may
	// shadow; the text rules judge a definition as they always have.
	others := map[string]bool{}
	for _, n := range ctx.SessionTools {
		others[strings.ToLower(n)] = true
	}
	states := make([]*scanState, len(list.Tools))
	for i := range list.Tools {
		c := ctx
		c.Tool, c.SessionTools = names[i], nil
		states[i] = s.newState(c)
		states[i].toolSchema = true
	}
	// A member name the model reads as a sentence (a property named with
	// an order, in words or snake_case: found by a red team) is scanned as
	// the strings are.
	prose := func(p *jsonPath, k string) {
		if len(p.elems) < 2 || p.elems[0].key != "tools" || p.elems[1].index < 0 || p.elems[1].index >= len(states) ||
			strings.Count(k, " ")+strings.Count(k, "_")+strings.Count(k, "-") < 3 {
			return
		}
		rel := &jsonPath{elems: append(p.elems[2:len(p.elems):len(p.elems)], pathElem{key: k, index: -1, dup: 1})}
		states[p.elems[1].index].scanText(k, rel.String()+" (its name)", "description", false)
	}
	err := walkJSONNames(toolsList, prose, func(p *jsonPath, _ span, v string) bool {
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
	for i, st := range states {
		st.addClaims(toolClaims(list.Tools[i], listed, others, ctx.Server))
	}
	var out []ToolFinding
	for i, st := range states {
		r := st.finish()
		if len(r.Detections) > 0 || len(r.Waived) > 0 {
			out = append(out, ToolFinding{Tool: names[i], Result: r})
		}
	}
	return out, nil
}

// addClaims scores the claims found on a tool's definition, one field at a
// time as the text rules' findings are, and adds them to its result.
func (st *scanState) addClaims(claims []toolClaim) {
	byPath := map[string][]finding{}
	var order []string
	for _, c := range claims {
		fd := finding{rule: c.rule, tier: Contextual, sev: c.sev, excerpt: c.excerpt}
		if st.waived(c.rule) {
			st.res.Waived = append(st.res.Waived, detection(fd, c.path, false))
			st.res.Evidence["waived"]++
			continue
		}
		if byPath[c.path] == nil {
			order = append(order, c.path)
		}
		byPath[c.path] = append(byPath[c.path], fd)
	}
	for _, p := range order {
		finds := byPath[p]
		score := st.s.fieldScore(finds, st.ctx, false)
		st.res.Score = max(st.res.Score, score)
		for _, fd := range finds {
			st.res.Detections = append(st.res.Detections, detection(fd, p, score >= st.s.o.Thresholds.Flag))
		}
	}
}
