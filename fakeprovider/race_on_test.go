//go:build race

package fakeprovider_test

// raceOn: the race detector multiplies memory, so memory bounds do not hold under it.
const raceOn = true
