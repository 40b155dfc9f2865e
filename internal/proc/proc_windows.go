package proc

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// sysState is the process's job object: every process it starts is in it too, and closing the
// last handle to it ends them all.
type sysState struct{ job windows.Handle }

func prepare(cmd *exec.Cmd, _ bool) int {
	// A process group of its own, the only thing CTRL_BREAK can be sent to. A console is
	// shared, not handed over: Terminal needs nothing here.
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
	return -1
}

func takeTerminal(int) {}

var (
	jobMu  sync.Mutex
	jobErr error // why a process could not be put in a job, for Limits
)

// attach puts the process in a new job that ends its processes when closed. What the process
// starts before this is done is not in the job: the window is a few system calls wide.
func attach(p *Process) {
	job, err := newJob(uint32(p.pid))
	if err != nil {
		jobMu.Lock()
		jobErr = err
		jobMu.Unlock()
		return
	}
	p.sys.job = job
}

func newJob(pid uint32) (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("CreateJobObject: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
		},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("SetInformationJobObject: %w", err)
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("OpenProcess: %w", err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("AssignProcessToJobObject: %w", err)
	}
	return job, nil
}

func release(p *Process) {
	if p.sys.job != 0 {
		windows.CloseHandle(p.sys.job)
	}
}

func setup() {}

func limits() string {
	s := "on windows there is no TERM: a process is sent CTRL_BREAK (which only console programs sharing " +
		"lembas-check's console receive), then its job object is terminated"
	jobMu.Lock()
	defer jobMu.Unlock()
	if jobErr != nil {
		s += fmt.Sprintf("; a process could not be put in a job object (%v), so what it starts may outlive "+
			"lembas-check", jobErr)
	}
	return s
}

func waitExited(*Process) bool { return false }

// exitedNow cannot look without reaping here: Exited alone says it.
func exitedNow(*Process) bool { return false }

func signalAll(p *Process, sig os.Signal) {
	if sig != nil {
		_ = windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(p.pid))
		return
	}
	if p.sys.job != 0 {
		_ = windows.TerminateJobObject(p.sys.job, 1)
		return
	}
	_ = p.cmd.Process.Kill()
}

// processIDList is JOBOBJECT_BASIC_PROCESS_ID_LIST with room for 256 processes.
type processIDList struct {
	assigned, listed uint32
	ids              [256]uintptr
}

// owned is every process still in p's job besides p.
func owned(p *Process) []Leftover {
	if p.sys.job == 0 {
		return nil
	}
	var list processIDList
	if err := windows.QueryInformationJobObject(p.sys.job, windows.JobObjectBasicProcessIdList,
		uintptr(unsafe.Pointer(&list)), uint32(unsafe.Sizeof(list)), nil); err != nil && list.listed == 0 {
		return nil
	}
	var out []Leftover
	for _, id := range list.ids[:min(int(list.listed), len(list.ids))] {
		if int(id) != p.pid {
			out = append(out, Leftover{Pid: int(id), Command: imageName(uint32(id))})
		}
	}
	return out
}

func imageName(pid uint32) string {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, windows.MAX_PATH)
	n := uint32(len(buf))
	if windows.QueryFullProcessImageName(h, 0, &buf[0], &n) != nil {
		return ""
	}
	return windows.UTF16ToString(buf[:n])
}

// signalEach kills the processes when kill is set; there is no gentler signal to send one.
func signalEach(left []Leftover, kill bool) {
	if !kill {
		return
	}
	for _, l := range left {
		if h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(l.Pid)); err == nil {
			_ = windows.TerminateProcess(h, 1)
			windows.CloseHandle(h)
		}
	}
}

func allGone(left []Leftover) bool {
	for _, l := range left {
		h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(l.Pid))
		if err != nil {
			continue
		}
		ev, err := windows.WaitForSingleObject(h, 0)
		windows.CloseHandle(h)
		if err == nil && ev != windows.WAIT_OBJECT_0 {
			return false
		}
	}
	return true
}

// strays: every process is in a job that ends with it.
func strays() []Leftover { return nil }

func reapStrays() {}

func reapGroup(*Process) {}
