package steps

import (
	"fmt"
	"strings"
)

// Steps shared by the areas that describe a tree and its grants (fs_access, instructions): a
// table of paths, and a table of path → level.

// pathRows reads a one-column table of paths.
func pathRows(a *args) ([]string, error) {
	return mapRows(a, 1, func(r []string) string { return strings.TrimSpace(r[0]) })
}

// levelRows reads a two-column table of path | level into an object; a path twice is an error.
func levelRows(a *args) (map[string]any, error) {
	rows, err := a.rows(2)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, r := range rows {
		p, l := strings.TrimSpace(r[0]), strings.TrimSpace(r[1])
		if _, dup := out[p]; dup {
			return nil, fmt.Errorf("%s is in the table twice", p)
		}
		out[p] = l
	}
	return out, nil
}

// viewSteps are the Givens of a session's view of a tree (fs_access's fields: tree, mounts,
// grants, floor, forge, cwd), for any area whose case has them.
func viewSteps[B any](fields func(*B) map[string]any) []stepDef {
	return []stepDef{
		step(Given, "the tree:", tableArg, "the nodes, one path a row; a directory ends with /, parents are implied",
			setFrom(fields, "tree", pathRows), "path"),
		step(Given, "an empty tree", noArg, "no node but the root",
			func(b *B, a *args) error { fields(b)["tree"] = []string{}; return nil }),
		step(Given, "the mounts {strings:dirs}", noArg, "directories that are forge repositories",
			func(b *B, a *args) error { fields(b)["mounts"] = a.list(0); return nil }),
		step(Given, "the grants:", tableArg, "the session's grants",
			setFrom(fields, "grants", levelRows), "path", "level"),
		step(Given, "the floor:", tableArg, "the most each path may be, whatever the grants",
			setFrom(fields, "floor", levelRows), "path", "level"),
		step(Given, "the forge account:", tableArg,
			"what the user's own forge account may do on each mount: no level there is above it",
			setFrom(fields, "forge", levelRows), "mount", "level"),
		step(Given, "the session starts in {string:dir}", noArg, "the start directory relative paths resolve against",
			func(b *B, a *args) error { fields(b)["cwd"] = a.str(0); return nil }),
	}
}
