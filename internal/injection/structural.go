package injection

import (
	"regexp"
	"strings"
)

// Structural rules: technical markers that benign content rarely carries.
// Character-level evidence (invisible characters, look-alike letters,
// encodings, terminal escapes) comes from normalisation; the markup rules
// below are matched like the contextual ones.

var markupRules = []*rule{
	{
		id: "fake-role-tag", tier: Structural, kind: markup,
		anchored: true, lead: 0,
		keywords: []string{"<|", "[inst]", "[/inst]", "<<sys>>", "<</sys>>", "<start_of_turn>", "<end_of_turn>"},
		before:   2, after: 40,
		re:  re(`<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text|end_of_text|tool|ipython|end)\|>|<(?:start|end)_of_turn>|\[/?inst\]|<</?sys>>`),
		sev: 0.8,
	},
	{
		id: "fake-role-tag", tier: Structural, kind: markup,
		anchored: true, lead: 0,
		keywords: []string{"<system", "</system", "<sys", "</sys", "<assistant", "</assistant", "<human", "</human",
			"<user", "</user", "<admin", "</admin", "<developer", "</developer", "<instruction", "</instruction",
			"<important", "</important", "<information", "</information", "<secret", "</secret", "<hidden",
			"</hidden", "<prompt", "</prompt", "<context", "</context", "<override", "</override", "<directive",
			"</directive", "<task", "</task", "<untrusted", "<trusted", "<im_start"},
		before: 2, after: 120,
		re:           re(`</?(system|system_prompt|system-prompt|sys|assistant|human|user|admin|administrator|developer|developer_message|instructions?|important|information|secret|hidden|prompt|context|override|directive|task|user_query|user_instructions|untrusted|trusted|im_start)(?:\s[^<>]{0,100})?>`),
		xmlDocFactor: 0.3,
		grade: func(t string, m []int) float64 {
			switch strings.ToLower(group(t, m, 1)) {
			case "system", "system_prompt", "system-prompt", "sys", "assistant", "human", "admin", "administrator",
				"developer", "developer_message", "override", "im_start":
				return 0.6
			case "important", "instructions", "instruction", "information", "secret", "hidden", "directive":
				return 0.55
			}
			return 0.35
		},
	},
	{
		id: "fake-role-tag", tier: Structural, kind: markup,
		anchored: true, lead: 0,
		keywords: []string{"# system", "#system", "# instruction", "# response", "# assistant", "# user", "# human",
			"[system", "[admin", "[assistant", "[developer", "[sys"},
		before: 6, after: 40,
		re:        re(`#{1,4}\s*(system|instructions?|response|assistant|human|user)(?:\s+(?:prompt|message|instructions?))?\s*:|\[(?:system|admin|assistant|developer|sys)(?:\s+(?:message|note|prompt|instructions?))?\]`),
		lineStart: true,
		grade: func(t string, m []int) float64 {
			switch strings.ToLower(group(t, m, 1)) {
			case "response", "user":
				return 0.3
			}
			return 0.5
		},
	},
	{
		// Conversation turns ("Human: … Assistant: …") are graded together
		// once all are found: see scoreTurns.
		id: turnMarker, tier: Structural, kind: markup,
		anchored: true, lead: 0,
		keywords: []string{"human:", "user:", "assistant:", "ai:", "system:", "bot:", "gpt:", "claude:", "human :", "assistant :", "system :"},
		before:   2, after: 2,
		re:        re(`(human|user|assistant|ai|system|bot|gpt|claude)\s?:`),
		lineStart: true, sev: 0.25,
	},
	{
		id: "fake-tool-call", tier: Structural, kind: markup,
		anchored: true, lead: 0,
		keywords: []string{"<function_calls", "</function_calls", "<function_results", "</function_results", "<tool_use",
			"</tool_use", "<tool_call", "</tool_call", "<tool_result", "</tool_result", "<tool_response",
			"</tool_response", "<tool_code", "<invoke", "</invoke", "<parameter", "</parameter", "<function_call",
			"[tool_calls]", "<|python_tag|>", "<|tool_call", "<tool▁call"},
		before: 2, after: 220,
		re:           re(`</?(?:function_calls|function_results|tool_use|tool_call|tool_calls|tool_result|tool_response|tool_code|invoke|parameter|function_call)\b[^<>]{0,200}>|<\|(?:tool_call|python_tag|tool_calls_begin|tool_call_begin)\|>|\[tool_calls\]|<tool▁call`),
		sev:          0.7,
		xmlDocFactor: 0.3,
	},
	{
		id: "fake-tool-call", tier: Structural, kind: markup,
		keywords: []string{`"arguments"`, `"args"`, `"input"`, `"tool_calls"`, `"function_call"`, `"tool_use"`},
		before:   140, after: 20,
		re:  re(`\{\s*"(?:name|tool|tool_name|function|recipient_name)"\s*:\s*"[\w.\-/]{1,64}"\s*,\s*"(?:arguments|args|input)"\s*:\s*[{"]|"(?:tool_calls|function_call|tool_use)"\s*:\s*[\[{]`),
		sev: 0.45,
	},
	{
		id: "html-script", tier: Structural, kind: markup,
		anchored: true, lead: 0,
		keywords: []string{"<script", "<iframe", "<object", "<embed", "<applet", "<frame", "<base", "<meta"},
		before:   2, after: 600,
		re:            re(`<(script|iframe|object|embed|applet|frameset|frame|base)\b([^>]{0,500})>(?:((?s:.{0,1000}?))</(?:script|iframe|object|embed|applet)\s*>)?|<meta\b[^>]{0,200}http-equiv\s*=\s*["']?refresh[^>]{0,200}>`),
		htmlDocFactor: 0.25,
		grade:         gradeElement,
	},
	{
		id: "html-script", tier: Structural, kind: markup,
		keywords: []string{"onerror", "onload", "onclick", "onmouseover", "onmouseenter", "onfocus", "onblur",
			"onchange", "onsubmit", "oninput", "onkeydown", "onkeyup", "onkeypress", "onbegin", "onanimationstart",
			"ontoggle", "onpointerover", "onpointerenter", "onunload", "onbeforeunload", "onmessage", "onhashchange",
			"onwheel", "onscroll", "oncopy", "onpaste"},
		before: 300, after: 20,
		re:            re(`<[a-z][a-z0-9]*\b[^<>]{0,300}?\son[a-z]{4,16}\s*=\s*("[^"]{0,300}"|'[^']{0,300}'|[^\s>]{1,300})`),
		htmlDocFactor: 0.25,
		grade: func(t string, m []int) float64 {
			if activeJS.MatchString(strings.ToLower(group(t, m, 1))) {
				return 0.6
			}
			return 0 // onclick="toggleMenu()" is how pages work
		},
	},
	{
		id: "script-uri", tier: Structural, kind: markup,
		anchored: true, lead: 0,
		keywords: []string{"javascript", "vbscript", "livescript", "data:text/html", "data:application/javascript",
			"data:application/x-javascript", "data:text/javascript"},
		before: 4, after: 60,
		re:            re(`(?:javascript|vbscript|livescript)\s*:\s*([^\s"'<>)]{0,40})|data:\s*(?:text/html|application/(?:x-)?javascript|text/javascript)[;,]`),
		htmlDocFactor: 0.3,
		grade: func(t string, m []int) float64 {
			if m[0] > 0 && strings.IndexByte(`("'=<`, t[m[0]-1]) < 0 && !strings.HasSuffix(t[:m[0]], "( ") {
				return 0 // "written in JavaScript: …" is prose
			}
			if body := strings.ToLower(group(t, m, 1)); m[2] >= 0 && (body == "" || body == ";" || strings.HasPrefix(body, "void")) {
				return 0
			}
			return 0.6
		},
	},
	{
		id: "markdown-exfil", tier: Structural, kind: markup,
		anchored: true, lead: 0,
		keywords: []string{"](", "<img"},
		after:    600,
		re:       re(`\]\(\s*<?((?:https?:)?//[^\s)>]{1,1000})|<img\b[^>]{0,300}?\ssrc\s*=\s*["']?((?:https?:)?//[^\s"'>]{1,1000})`),
		grade: func(t string, m []int) float64 {
			url := group(t, m, 1) + group(t, m, 2)
			if !strings.ContainsAny(url, "{<[$%_") && !strings.Contains(strings.ToLower(url), "insert") && !strings.Contains(strings.ToLower(url), "replace") || !placeholder.MatchString(url) {
				return 0
			}
			image := m[4] >= 0
			if m[2] >= 0 {
				// Back to the link text's "[" (and an image's "!").
				open := strings.LastIndexByte(t[max(0, m[0]-300):m[0]], '[')
				if open < 0 {
					return 0
				}
				m[0] = max(0, m[0]-300) + open
				if m[0] > 0 && t[m[0]-1] == '!' {
					m[0]--
					image = true
				}
			}
			if image {
				return 0.8 // an image is fetched as soon as it is rendered
			}
			if privateSlot.MatchString(strings.ToLower(url)) {
				return 0.65 // a link to be completed with the user's secrets
			}
			return 0.45
		},
	},
}

// activeJS finds what cross-site scripting payloads do: read cookies or
// storage, navigate, fetch, evaluate, write the document.
var activeJS = re(`document\.cookie|localstorage|sessionstorage|location\s*=|location\.href|window\.location|fetch\s*\(|xmlhttprequest|sendbeacon|eval\s*\(|atob\s*\(|fromcharcode|alert\s*\(|prompt\s*\(|confirm\s*\(|import\s*\(|document\.write|innerhtml|\.submit\s*\(|window\.open|new\s+image|\.src\s*=`)

// gradeElement weighs an embedded active element: a script that does what
// attacks do, a frame hidden from view, a base URL rewrite or a refresh
// redirect. A script pulled from a URL or a visible embed is what snippets
// and blog posts carry.
func gradeElement(t string, m []int) float64 {
	tag, attrs, body := strings.ToLower(group(t, m, 1)), group(t, m, 2), group(t, m, 3)
	switch tag {
	case "":
		return 0.45 // meta refresh
	case "script":
		if activeJS.MatchString(strings.ToLower(body)) {
			return 0.65
		}
		return 0.25
	case "base":
		return 0.4
	}
	attrs = strings.ToLower(attrs)
	if style := styleAttr.FindStringSubmatch(attrs); style != nil && hiddenStyle(style[1]) || tinyFrame.MatchString(attrs) {
		return 0.6
	}
	return 0.25
}

var (
	styleAttr = re(`\bstyle\s*=\s*("[^"]*"|'[^']*')`)
	tinyFrame = re(`\b(?:width|height)\s*=\s*["']?[01](?:px)?["'\s>]|\bhidden\b`)
)

// turnMarker is the internal id of conversation-turn matches before they
// are graded as a whole.
const turnMarker = "turn-marker"

// placeholder finds a slot in a URL for the model to fill in: exfiltration
// through a link or an image the client renders.
var placeholder = regexp.MustCompile(`\{[^{}\s]{1,80}\}|\{\{|%7[bB]|\$\{|\$[A-Z_]{3,}|<[A-Za-z_ ]{2,40}>|%3[cC][A-Za-z_]|\[[A-Z_ ]{3,40}\]|(?i:insert|replace|placeholder|your_|user_|_here)`)

// privateSlot is a URL placeholder named after something private.
var privateSlot = re(`[{<\[$%][^}>\]]{0,40}(?:token|key|secret|password|passwd|email|mail|user|session|cookie|history|conversation|chat|summary|data|ssn|card|account|address|phone|credential)`)

// Regions: stretches of text a person does not see. Instructions inside
// them are worse than the same words in plain sight.
var (
	hiddenTag = re(`<([a-z][a-z0-9]{0,10})\b[^<>]{0,600}?(?:\sstyle\s*=\s*("[^"]{0,600}"|'[^']{0,600}')|\shidden(?:\s|>|=|/))[^<>]{0,600}>`)
	hiddenKW  = []string{"display", "visibility", "font-size", "opacity", "text-indent", "clip", " hidden", "color",
		"height:0", "height: 0", "max-height", "left:-", "left: -", "scale(0", "width:0", "width: 0"}
	commentKW = []string{"<!--", "[//]:", "[comment]:"}
)

// hiddenStyle reports whether a CSS declaration list hides its element's
// text: not displayed, invisible, zero-sized, transparent, the text colour
// equal to the background, or moved off-screen.
func hiddenStyle(style string) bool {
	decl := map[string]string{}
	for _, d := range strings.Split(strings.ToLower(strings.Trim(style, `"'`)), ";") {
		k, v, ok := strings.Cut(d, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important"))
		decl[strings.TrimSpace(k)] = v
	}
	zero := func(v string) bool {
		v = strings.TrimRight(v, "pxtemr%")
		return v == "0" || v == "0.0" || v == ".0" || v == "0.00"
	}
	tiny := func(v string) bool {
		return zero(v) || v == "1px" || v == "0.1px" || v == "0.5px"
	}
	switch {
	case decl["display"] == "none", decl["visibility"] == "hidden", decl["visibility"] == "collapse":
		return true
	case tiny(decl["font-size"]), zero(decl["opacity"]):
		return true
	case decl["color"] == "transparent":
		return true
	case decl["color"] != "" && sameColour(decl["color"], decl["background-color"]+decl["background"]):
		return true
	case offscreen(decl["text-indent"]):
		return true
	case decl["position"] == "absolute" && (offscreen(decl["left"]) || offscreen(decl["top"])):
		return true
	case (zero(decl["height"]) || zero(decl["max-height"]) || zero(decl["width"])) && decl["overflow"] == "hidden":
		return true
	case strings.HasPrefix(decl["transform"], "scale(0)"), strings.HasPrefix(decl["clip"], "rect(0"):
		return true
	}
	return false
}

func offscreen(v string) bool {
	return strings.HasPrefix(v, "-") && len(strings.TrimRight(strings.TrimLeft(v, "-"), "pxem")) >= 4
}

func sameColour(fg, bg string) bool {
	canon := func(c string) string {
		c = strings.TrimSpace(c)
		switch c {
		case "white", "#fff", "#ffffff", "rgb(255,255,255)", "rgb(255, 255, 255)":
			return "#ffffff"
		case "black", "#000", "#000000", "rgb(0,0,0)", "rgb(0, 0, 0)":
			return "#000000"
		}
		if len(c) == 4 && c[0] == '#' {
			return "#" + string([]byte{c[1], c[1], c[2], c[2], c[3], c[3]})
		}
		return c
	}
	bg = strings.TrimSpace(bg)
	if f := strings.Fields(bg); len(f) > 0 {
		bg = f[0]
	}
	return bg != "" && canon(fg) == canon(bg)
}

// closeTag returns where the element opened just before from ends: its
// closing tag, or a bounded stretch if there is none. lt is lower-cased.
func closeTag(lt string, from int, tag string) int {
	limit := min(len(lt), from+8192)
	if k := strings.Index(lt[from:limit], "</"+strings.ToLower(tag)); k >= 0 {
		return from + k
	}
	return min(len(lt), from+2000)
}
