//go:build windows

package term

import "golang.org/x/sys/windows"

// fdWidth is the console window's columns; 0 when not told.
func fdWidth(fd uintptr) int {
	var info windows.ConsoleScreenBufferInfo
	if err := windows.GetConsoleScreenBufferInfo(windows.Handle(fd), &info); err != nil {
		return 0
	}
	return int(info.Window.Right-info.Window.Left) + 1
}
