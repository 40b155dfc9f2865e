package fsaccess

import "fmt"

// Level is a session's access at a path (filesystem.md *Access levels*), ordered so that a
// floor lowers a grant by taking the smaller.
type Level int8

const (
	None   Level = iota // no access: the path does not exist for the model
	RO                  // read
	Stage               // read and change; in a mount the change stays in the working copy
	Commit              // read, change and, in a mount, commit
)

// levelNames are the levels as the spec and its cases write them; TestLevelsAreTheSpecTable
// checks them against filesystem.md's table.
var levelNames = [...]string{None: "none", RO: "ro", Stage: "stage", Commit: "commit"}

func (l Level) String() string {
	if l >= 0 && int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", int8(l))
}

// ParseLevel reads none, ro, stage or commit.
func ParseLevel(s string) (Level, error) {
	for l, n := range levelNames {
		if n == s {
			return Level(l), nil
		}
	}
	return None, fmt.Errorf("%q is not a level; want none, ro, stage or commit", s)
}

// MarshalText writes the level's name.
func (l Level) MarshalText() ([]byte, error) {
	if l < None || l > Commit {
		return nil, fmt.Errorf("no level %d", int8(l))
	}
	return []byte(l.String()), nil
}

// UnmarshalText reads a level's name.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// Kind is a node's kind (filesystem.md *Node kinds*).
type Kind int8

const (
	Dir Kind = iota + 1
	File
	Mount // a directory that is a forge repository
)

func (k Kind) String() string {
	switch k {
	case Dir:
		return "dir"
	case File:
		return "file"
	case Mount:
		return "mount"
	}
	return fmt.Sprintf("Kind(%d)", int8(k))
}

// IsDir says the node holds entries: a directory or a mount.
func (k Kind) IsDir() bool { return k == Dir || k == Mount }
