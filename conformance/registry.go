package conformance

import "sort"

// All is every area lembas-check knows, the spec's and its own, by name.
func All() []Area {
	areas := []Area{Chunk, ChunkTokens, Context, FSAccess, Index, Instructions, Jobs, Modules, Prefix, Search, Workspace}
	sort.Slice(areas, func(i, j int) bool { return areas[i].Name < areas[j].Name })
	return areas
}

// ByName finds an area.
func ByName(name string) (Area, bool) {
	for _, a := range All() {
		if a.Name == name {
			return a, true
		}
	}
	return Area{}, false
}
