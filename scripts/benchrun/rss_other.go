//go:build !unix

package main

import "os"

// peakKiB is 0 where the OS gives no rusage (Windows): the table shows no peak RSS there.
func peakKiB(*os.ProcessState) int64 { return 0 }
