package skills

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/LLeMbas/lembas-check/harness/fsaccess"
	"github.com/LLeMbas/lembas-check/harness/spec"
)

// The texts are filesystem.md's: the rows' places and the name rules.
func TestSpecTexts(t *testing.T) {
	tx := SpecTexts()
	if want := []string{"skills/", "/home/<user>/skills/", "/skills/"}; !reflect.DeepEqual(tx.Chat, want) {
		t.Errorf("chat places %q, want %q", tx.Chat, want)
	}
	if want := []string{".agent/skills/"}; !reflect.DeepEqual(tx.Device, want) {
		t.Errorf("device places %q, want %q", tx.Device, want)
	}
	if tx.Name.String() != "^[a-z0-9][a-z0-9-]{0,63}$" || tx.MaxOffered != 64 {
		t.Errorf("name rule %s, offered up to %d", tx.Name, tx.MaxOffered)
	}
}

// A Skills section that changed shape is an error naming what is missing, never a silent default.
func TestParseTextsRefusesAChangedSection(t *testing.T) {
	md, err := spec.ReadFile("filesystem.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ old, new, want string }{
		{"| chat |", "| web |", "the chat row"},
		{"| device |", "| cli |", "the device row"},
		{"`^[a-z0-9][a-z0-9-]{0,63}$`", "the usual rule", "name rule"},
		{"one line of at most 64 characters", "one short line", "one line of at most"},
		{"`^[a-z0-9][a-z0-9-]{0,63}$`", "`^[a-z0-9$`", "the name rule"},
		{"## Skills", "## Skill files", "the chat row"},
	} {
		_, err := ParseTexts(bytes.Replace(md, []byte(c.old), []byte(c.new), 1))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: %v, want an error about %s", c.old, c.new, err, c.want)
		}
	}
}

func TestPlaces(t *testing.T) {
	got := ChatPlaces("/", "/team/repo", "ana")
	want := []string{"/team/repo/skills", "/team/skills", "/home/ana/skills", "/skills"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ChatPlaces = %q, want %q", got, want)
	}
	// Started in the person's home: the walk's place and the person's are one, counted first.
	if got := ChatPlaces("/", "/home/ana", "ana"); !reflect.DeepEqual(got,
		[]string{"/home/ana/skills", "/home/skills", "/skills"}) {
		t.Errorf("ChatPlaces from /home/ana = %q", got)
	}
	if got := DevicePlaces("/p", false, "/u/skills", []string{"/c", "/u/skills"}); !reflect.DeepEqual(got,
		[]string{"/u/skills", "/c"}) {
		t.Errorf("DevicePlaces untrusted = %q", got)
	}
	if got := DevicePlaces("/p", true, "", nil); !reflect.DeepEqual(got, []string{"/p/.agent/skills"}) {
		t.Errorf("DevicePlaces trusted = %q", got)
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		name          string
		valid, offers bool
	}{
		{"deploy", true, true}, {"9x", true, true}, {strings.Repeat("a", 64), true, true},
		{strings.Repeat("a", 65), false, false}, {"Deploy", false, true}, {"-x", false, true},
		{"a_b", false, true}, {"", false, false}, {"a\nb", false, false}, {strings.Repeat("é", 64), false, true},
	} {
		if Valid(c.name) != c.valid || Offered(c.name) != c.offers {
			t.Errorf("%q: Valid %v Offered %v, want %v %v", c.name, Valid(c.name), Offered(c.name), c.valid, c.offers)
		}
	}
	if Key("My Skill_One") != "my-skill-one" {
		t.Errorf("Key = %q", Key("My Skill_One"))
	}
}

// Found keeps the first of a looked-up name, skips what the view hides, and Lookup reads the key.
func TestFoundAndLookup(t *testing.T) {
	tree := []string{"/a/skills/x/SKILL.md", "/b/skills/X_/SKILL.md", "/b/skills/y/SKILL.md", "/b/skills/z/SKILL.md"}
	v, err := fsaccess.New(fsaccess.Config{Tree: tree, Grants: map[string]fsaccess.Level{"/": fsaccess.RO,
		"/b/skills/z": fsaccess.None}})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{"/b/skills/X_/SKILL.md": "x"}
	got := Found(v, tree, []string{"/a/skills", "/b/skills"}, func(f string) string {
		if n, ok := names[f]; ok {
			return n
		}
		return fsaccess.Base(fsaccess.Parent(f))
	})
	want := []Skill{{"x", "/a/skills/x/SKILL.md"}, {"y", "/b/skills/y/SKILL.md"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Found = %v, want %v", got, want)
	}
	if s, ok := Lookup(got, "Y"); !ok || s.Path != "/b/skills/y/SKILL.md" {
		t.Errorf("Lookup(Y) = %v %v", s, ok)
	}
	if _, ok := Lookup(got, "z"); ok {
		t.Error("Lookup(z) found a hidden skill")
	}
	if NewFile("/home/ana/skills/", "n") != "/home/ana/skills/n/SKILL.md" {
		t.Errorf("NewFile = %s", NewFile("/home/ana/skills/", "n"))
	}
}
