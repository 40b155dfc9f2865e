package recdiff

import "fmt"

// maxAlign bounds the pairing table (requests of A × requests of B); past it requests are paired
// by position, and the report says so.
const maxAlign = 16 << 20

// pairUp pairs the requests of the two sides: by position when they sent as many; else by the
// longest run in order of requests answering the same message of the person (pairKey), so that a
// title request or a subagent's turn one side adds is left unpaired instead of shifting every
// pair after it. It returns index pairs (-1 for a side's unpaired request) and how it paired.
func pairUp(a, b []*request) (pairs [][2]int, how string) {
	n, m := len(a), len(b)
	if n == m || n*m > maxAlign {
		how = "by position"
		if n != m {
			how = fmt.Sprintf("by position (%d and %d requests: too many to align)", n, m)
		}
		for i := range max(n, m) {
			p := [2]int{-1, -1}
			if i < n {
				p[0] = i
			}
			if i < m {
				p[1] = i
			}
			pairs = append(pairs, p)
		}
		return pairs, how
	}
	// lcs[i][j] is the longest common run of a[i:] and b[j:] by key.
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i].key == b[j].key {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	if lcs[0][0] == 0 {
		pairs, _ = pairUp(a[:min(n, m)], b[:min(n, m)])
		for i := m; i < n; i++ {
			pairs = append(pairs, [2]int{i, -1})
		}
		for j := n; j < m; j++ {
			pairs = append(pairs, [2]int{-1, j})
		}
		return pairs, fmt.Sprintf("by position (%d and %d requests; none of a answers a message of the person b's "+
			"answer)", n, m)
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i].key == b[j].key:
			pairs = append(pairs, [2]int{i, j})
			i, j = i+1, j+1
		case j >= m || i < n && lcs[i+1][j] >= lcs[i][j+1]:
			pairs = append(pairs, [2]int{i, -1})
			i++
		default:
			pairs = append(pairs, [2]int{-1, j})
			j++
		}
	}
	return pairs, fmt.Sprintf("by the person's messages (%d and %d requests)", n, m)
}
