//go:build !race

package fakeprovider_test

const raceOn = false
