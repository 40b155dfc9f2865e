package conformance

import (
	"sort"
	"sync"
)

// All is every area lembas-check knows, the spec's and its own, by name.
func All() []Area {
	areas := []Area{Chunk, ChunkTokens, Context, FSAccess, Index, Instructions, Jobs, Loop, Modules, Prefix,
		Prompts, Search, Skills, Tools, Workspace}
	sort.Slice(areas, func(i, j int) bool { return areas[i].Name < areas[j].Name })
	return areas
}

// byName is All by name, made once: ByName is asked for every case a run answers.
var byName = sync.OnceValue(func() map[string]Area {
	m := map[string]Area{}
	for _, a := range All() {
		m[a.Name] = a
	}
	return m
})

// ByName finds an area.
func ByName(name string) (Area, bool) {
	a, ok := byName()[name]
	return a, ok
}
