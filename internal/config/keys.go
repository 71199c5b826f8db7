package config

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// keyInfo is where a key sits in a document and what kind of value it holds.
type keyInfo struct {
	path []string
	line int
	kind unstable.Kind
	// alias marks the positional name of a key in an array of tables,
	// indexed for its line only.
	alias bool
}

// indexKeys maps every key in a TOML document (tables, keys and keys inside
// inline tables, by their formatted full path) to its line and value kind.
// It uses go-toml's unstable parser: the decoder reports positions only for
// its own errors, and validation errors deserve a line too.
func indexKeys(data []byte) (map[string]keyInfo, error) {
	idx := map[string]keyInfo{}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	// Each table of an array of tables is also indexed by its position,
	// "injection.waiver[1].rule", so a bad value in it gets its own line.
	var element string
	elements := map[string]int{}
	for p.NextExpression() {
		expr := p.Expression()
		switch expr.Kind {
		case unstable.Table:
			table, element = keyPath(nil, expr.Key()), ""
			idx[formatKey(table)] = keyInfo{path: table, line: keyLine(&p, expr), kind: unstable.Table}
		case unstable.ArrayTable:
			table = keyPath(nil, expr.Key())
			k := formatKey(table)
			element = fmt.Sprintf("%s[%d]", k, elements[k])
			elements[k]++
			info := keyInfo{path: table, line: keyLine(&p, expr), kind: unstable.ArrayTable}
			idx[k] = info
			info.alias = true
			idx[element] = info
		case unstable.KeyValue:
			indexKeyValue(&p, idx, table, expr)
			if element != "" {
				path := keyPath(table, expr.Key())
				info := idx[formatKey(path)]
				info.alias = true
				idx[element+"."+formatKey(path[len(table):])] = info
			}
		}
	}
	if err := p.Error(); err != nil {
		return nil, err
	}
	return idx, nil
}

func indexKeyValue(p *unstable.Parser, idx map[string]keyInfo, prefix []string, kv *unstable.Node) {
	path := keyPath(prefix, kv.Key())
	val := kv.Value()
	idx[formatKey(path)] = keyInfo{path: path, line: keyLine(p, kv), kind: val.Kind}
	if val.Kind == unstable.InlineTable {
		it := val.Children()
		for it.Next() {
			indexKeyValue(p, idx, path, it.Node())
		}
	}
}

func keyPath(prefix []string, it unstable.Iterator) []string {
	path := slices.Clone(prefix)
	for it.Next() {
		path = append(path, string(it.Node().Data))
	}
	return path
}

// keyLine is the line of the first part of a table header's or key-value's
// key; key nodes always carry their position, unlike table nodes.
func keyLine(p *unstable.Parser, n *unstable.Node) int {
	it := n.Key()
	it.Next()
	return p.Shape(it.Node().Raw).Start.Line
}

// formatKey writes a key path the way a user would write it in the file,
// quoting the parts that are not bare keys.
func formatKey(path []string) string {
	parts := make([]string, len(path))
	for i, s := range path {
		parts[i] = s
		if !isBareKey(s) {
			parts[i] = fmt.Sprintf("%q", s)
		}
	}
	return strings.Join(parts, ".")
}

func isBareKey(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

var (
	configType   = reflect.TypeFor[Config]()
	durationType = reflect.TypeFor[Duration]()
)

// schemaType is the Go type that holds the value at path in a Config, or nil
// if Config has no such key.
func schemaType(path []string) reflect.Type {
	t := configType
	for _, name := range path {
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct {
			t = t.Elem() // a key inside one table of an array of tables
		}
		switch t.Kind() {
		case reflect.Struct:
			f, ok := fieldByKey(t, name)
			if !ok {
				return nil
			}
			t = f.Type
		case reflect.Map:
			t = t.Elem()
		default:
			return nil
		}
	}
	return t
}

func fieldByKey(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if f := t.Field(i); tomlName(f) == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func tomlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	return name
}

// checkKinds reports, in document order, keys whose value has the wrong TOML
// type. go-toml finds most of these itself, but a number given for a duration
// reaches Duration.UnmarshalText and comes back without a position.
func checkKinds(idx map[string]keyInfo, name string) error {
	var errs []error
	for _, k := range sortedByLine(idx) {
		t := schemaType(k.path)
		if t == nil || k.alias {
			continue // unknown keys are reported by the strict decoder
		}
		if want, ok := wantKind(t); !ok || !slices.Contains(want, k.kind) {
			errs = append(errs, fmt.Errorf("config %s:%d: %s: want %s, got %s",
				name, k.line, formatKey(k.path), describeType(t), describeKind(k.kind)))
		}
	}
	return errors.Join(errs...)
}

func sortedByLine(idx map[string]keyInfo) []keyInfo {
	keys := make([]keyInfo, 0, len(idx))
	for _, k := range idx {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b keyInfo) int {
		if a.line != b.line {
			return a.line - b.line
		}
		return strings.Compare(formatKey(a.path), formatKey(b.path))
	})
	return keys
}

// wantKind lists the TOML kinds that may hold a Go value of type t.
func wantKind(t reflect.Type) ([]unstable.Kind, bool) {
	switch {
	case t == durationType:
		return []unstable.Kind{unstable.String}, true
	case t.Kind() == reflect.String:
		return []unstable.Kind{unstable.String}, true
	case t.Kind() == reflect.Int:
		return []unstable.Kind{unstable.Integer}, true
	case t.Kind() == reflect.Bool:
		return []unstable.Kind{unstable.Bool}, true
	case t.Kind() == reflect.Float64:
		return []unstable.Kind{unstable.Float, unstable.Integer}, true
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		return []unstable.Kind{unstable.Array, unstable.ArrayTable}, true
	case t.Kind() == reflect.Slice:
		return []unstable.Kind{unstable.Array}, true
	case t.Kind() == reflect.Struct, t.Kind() == reflect.Map:
		return []unstable.Kind{unstable.Table, unstable.InlineTable}, true
	}
	return nil, false
}

func describeType(t reflect.Type) string {
	switch {
	case t == durationType:
		return `a duration string such as "5s" or "168h"`
	case t.Kind() == reflect.String:
		return "a string"
	case t.Kind() == reflect.Int:
		return "an integer"
	case t.Kind() == reflect.Bool:
		return "a boolean"
	case t.Kind() == reflect.Float64:
		return "a number"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		return "an array of tables"
	case t.Kind() == reflect.Slice:
		return "an array"
	case t.Kind() == reflect.Struct, t.Kind() == reflect.Map:
		return "a table"
	}
	return t.String()
}

func describeKind(k unstable.Kind) string {
	switch k {
	case unstable.String:
		return "a string"
	case unstable.Integer:
		return "an integer"
	case unstable.Float:
		return "a float"
	case unstable.Bool:
		return "a boolean"
	case unstable.Array:
		return "an array"
	case unstable.Table, unstable.InlineTable:
		return "a table"
	case unstable.ArrayTable:
		return "an array of tables"
	}
	return "a date or time"
}

// decodeError rewrites go-toml's errors as "config FILE:LINE: ..." lines.
func decodeError(err error, name string) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		errs := make([]error, len(strict.Errors))
		for i := range strict.Errors {
			e := &strict.Errors[i]
			line, _ := e.Position()
			errs[i] = fmt.Errorf("config %s:%d: unknown key %q%s", name, line, formatKey(e.Key()), knownKeysHint(e.Key()))
		}
		return errors.Join(errs...)
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, _ := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if k := formatKey(de.Key()); k != "" && !strings.Contains(msg, k) {
			msg = k + ": " + msg
		}
		return fmt.Errorf("config %s:%d: %s", name, line, msg)
	}
	return fmt.Errorf("config %s: %w", name, err)
}

// knownKeysHint lists the keys the table holding an unknown key does accept,
// so a typo is fixed without opening the docs.
func knownKeysHint(path toml.Key) string {
	if len(path) == 0 {
		return ""
	}
	parent := path[:len(path)-1]
	t := schemaType(parent)
	if t == nil || t.Kind() != reflect.Struct {
		return ""
	}
	names := make([]string, t.NumField())
	for i := range names {
		names[i] = tomlName(t.Field(i))
	}
	where := "at the top level"
	if len(parent) > 0 {
		where = "in [" + formatKey(parent) + "]"
	}
	return fmt.Sprintf(" (known keys %s: %s)", where, strings.Join(names, ", "))
}

// locate turns validation failures into errors that carry the file name and,
// when the key was written in the file, its line; they come in file order.
func locate(fails []fieldError, idx map[string]keyInfo, name string) error {
	find := func(key string) (keyInfo, bool) {
		k, ok := idx[key]
		if j := strings.LastIndex(key, "]."); !ok && j >= 0 {
			// A key missing from one table of an array of tables: point
			// at the table.
			k, ok = idx[key[:j+1]]
		}
		return k, ok
	}
	slices.SortStableFunc(fails, func(a, b fieldError) int {
		ka, _ := find(a.key)
		kb, _ := find(b.key)
		return ka.line - kb.line
	})
	errs := make([]error, len(fails))
	for i, f := range fails {
		if k, ok := find(f.key); ok {
			errs[i] = fmt.Errorf("config %s:%d: %s", name, k.line, f)
		} else {
			errs[i] = fmt.Errorf("config %s: %s", name, f)
		}
	}
	return errors.Join(errs...)
}
