// Package untrusted makes text that someone other than flowd and its
// user may have written (tool output, tool and server names, the
// excerpts of an injection finding, reasons that quote them) inert for
// whoever reads it: a terminal, a browser, a spreadsheet or a model.
//
// Every outlet that shows records — the API and its event stream, the
// dashboard, the CSV export, the CLI and flowd mcp — passes such text
// through this package, so that it is neutralised the same way
// everywhere:
//
//   - Text escapes, visibly, what could act on a viewer rather than be
//     read by one: control characters (ANSI and OSC escape sequences,
//     carriage returns and newlines that forge lines), bidirectional
//     overrides, zero-width and other invisible format characters,
//     Unicode tag characters and variation selectors (which smuggle
//     hidden instructions to a model), line separators, and the fence's
//     own brackets.
//   - Quote fences an excerpt of attacker text as data: ⟦untrusted
//     data: …⟧. Text escapes the brackets inside it, so quoted text
//     cannot end the fence early.
//   - Block is Text for multi-line content, JSON applies both to every
//     string of a JSON document (a record's details, a tool definition).
//   - Cell keeps a spreadsheet from reading a CSV cell as a formula.
//
// Markup is left to the viewer's own escaping (the dashboard puts every
// string in the page as text), where it belongs: HTML-escaping here
// would show &lt; to every other reader.
//
// All of them are idempotent: an outlet may apply them to text an earlier
// outlet already neutralised (flowd mcp reads the API, which did).
package untrusted
