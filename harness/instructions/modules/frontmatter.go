package modules

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"
)

// bom is the UTF-8 byte order mark, stripped from what a module sends.
var bom = []byte("\xef\xbb\xbf")

// Module is a rule file read: the body the model is sent (frontmatter and a BOM stripped) and
// the globs of its `paths`, none for an unconditional module.
type Module struct {
	Body  []byte
	Globs []Glob
}

// Conditional says the module is picked by the paths touched rather than loaded at spawn.
func (m Module) Conditional() bool { return len(m.Globs) > 0 }

// InvalidError is a module refused whole for its frontmatter: "Any other key, invalid YAML, an
// unterminated frontmatter block or a malformed paths value makes the whole module invalid".
type InvalidError struct{ Msg string }

func (e *InvalidError) Error() string { return "invalid module: " + e.Msg }

func invalid(format string, args ...any) error {
	return &InvalidError{Msg: fmt.Sprintf(format, args...)}
}

// Parse reads a rule file. A frontmatter block is the fence alone on the first line (after a
// BOM) up to the next line that is the fence alone; a line may end in CRLF. Without one, or
// with an empty one (white space, comments, null or {}), the module is unconditional.
func Parse(file []byte) (Module, error) {
	t := SpecTexts()
	file = bytes.TrimPrefix(file, bom)
	first, rest, _ := cutLine(file)
	if string(first) != t.Fence {
		return Module{Body: file}, nil
	}
	// The block is the lines between the fences, a slice of the file: nothing keeps it (the
	// memo copies its key, the globs their text).
	block := rest
	for len(rest) > 0 {
		line, after, _ := cutLine(rest)
		if string(line) == t.Fence {
			m := Module{Body: after}
			globs, err := parseFrontMemo(block[:len(block)-len(rest)], t.Key)
			if err != nil {
				return Module{}, err
			}
			m.Globs = globs
			return m, nil
		}
		rest = after
	}
	return Module{}, invalid("the frontmatter block opened by %q on the first line is never closed", t.Fence)
}

// cutLine is b's first line without its LF or CRLF, and what follows that line ending.
func cutLine(b []byte) (line, rest []byte, found bool) {
	line, rest, found = bytes.Cut(b, []byte("\n"))
	if found {
		line = bytes.TrimSuffix(line, []byte("\r"))
	}
	return line, rest, found
}

// parseFront reads the YAML between the fences: nothing, or a mapping whose one key is `key`,
// its value a non-empty list of non-empty strings, each a glob CompileGlob accepts. The shape
// most modules have (plainFront) is read without the YAML parser, which was a quarter of the
// modules area's CPU time in `run`; FuzzPlainFrontIsYAML holds the two to one answer.
func parseFront(front []byte, key string) ([]Glob, error) {
	items, ok := plainFront(front, key)
	if !ok {
		return parseFrontYAML(front, key)
	}
	globs := make([]Glob, 0, len(items))
	for i, item := range items {
		g, err := CompileGlob(item)
		if err != nil {
			return nil, invalid("%s[%d]: %v", key, i, err)
		}
		globs = append(globs, g)
	}
	return globs, nil
}

// plainFront reads a frontmatter of exactly this shape, the key of lowercase letters, each item
// a double-quoted string of printable ASCII without a quote or a backslash (so nothing in it is
// an escape, and YAML reads it as written), one or more items:
//
//	paths:
//	  - "src/**"
//	  - "docs/*.md"
//
// ok is false for any other text, even one YAML reads the same: parseFrontYAML reads it.
func plainFront(front []byte, key string) (items []string, ok bool) {
	for _, c := range []byte(key) {
		if c < 'a' || c > 'z' {
			return nil, false
		}
	}
	rest, ok := bytes.CutPrefix(front, []byte(key+":\n"))
	if !ok || len(rest) == 0 {
		return nil, false
	}
	for len(rest) > 0 {
		line, after, found := bytes.Cut(rest, []byte("\n"))
		item, ok := bytes.CutPrefix(line, []byte(`  - "`))
		if !found || !ok || len(item) < 2 || item[len(item)-1] != '"' {
			return nil, false
		}
		item = item[:len(item)-1]
		for _, c := range item {
			if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
				return nil, false
			}
		}
		items = append(items, string(item))
		rest = after
	}
	return items, true
}

// parseFrontYAML is parseFront by the YAML parser, for any text.
func parseFrontYAML(front []byte, key string) (globs []Glob, err error) {
	defer func() {
		// A parser that panics on some input must not take the resolver down: the module is
		// invalid YAML as far as anyone can tell.
		if r := recover(); r != nil {
			globs, err = nil, invalid("the frontmatter is not YAML the parser can read")
		}
	}()
	// Every document of the block is read: a second one (after `...`, or a `--- …` line that
	// is not the closing fence) would otherwise go unseen, and an empty first one would make the
	// module unconditional whatever the second says.
	dec := yaml.NewDecoder(bytes.NewReader(front))
	var docs []yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, invalid("the frontmatter is not YAML: %v", err)
		}
		if docs = append(docs, doc); len(docs) > 1 {
			return nil, invalid("the frontmatter holds more than one YAML document")
		}
	}
	if len(docs) == 0 || docs[0].Kind == 0 || len(docs[0].Content) == 0 {
		return nil, nil
	}
	doc := docs[0]
	root := doc.Content[0]
	switch {
	case root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null":
		return nil, nil
	case root.Kind != yaml.MappingNode:
		return nil, invalid("the frontmatter is not a mapping of %s", key)
	}
	var value *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		if k.Kind != yaml.ScalarNode || k.Value != key {
			return nil, invalid("key %q: %s is the only key the frontmatter may carry", k.Value, key)
		}
		if value != nil {
			return nil, invalid("%s twice: a YAML mapping's keys are unique", key)
		}
		value = root.Content[i+1]
	}
	if value == nil {
		return nil, nil
	}
	value = deref(value)
	if value.Kind != yaml.SequenceNode || len(value.Content) == 0 {
		return nil, invalid("%s is not a non-empty list", key)
	}
	for i, item := range value.Content {
		item = deref(item)
		if item.Kind != yaml.ScalarNode || item.ShortTag() != "!!str" || item.Value == "" {
			return nil, invalid("%s[%d] is not a non-empty string", key, i)
		}
		g, err := CompileGlob(item.Value)
		if err != nil {
			return nil, invalid("%s[%d]: %v", key, i, err)
		}
		globs = append(globs, g)
	}
	return globs, nil
}

// deref follows an alias to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 8; i++ {
		n = n.Alias
	}
	return n
}
