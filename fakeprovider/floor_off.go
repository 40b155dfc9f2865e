//go:build !lembasfloor

package fakeprovider

// floor: see floor.go.
const floor = false
