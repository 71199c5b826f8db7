package shim

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows cannot deliver a signal to another process: on an interrupt
// the shim ends the child (Run falls back to Kill when Signal fails).
var forwardedSignals = []os.Signal{os.Interrupt}

// startChild puts the upstream in a job object that kills it when the
// shim's handle to the job closes, which Windows does however the shim
// ends (TerminateProcess, a crash): Windows has no parent-death signal,
// and an upstream that does not exit on stdin EOF would be orphaned. The
// child starts suspended and runs only once it is in the job, so nothing
// it starts escapes. The job is never closed on purpose: it lives exactly
// as long as the shim.
//
// The returned function, called once the upstream has exited, ends what
// it left running in the job: those processes would die with the shim
// anyway, and one holding the upstream's stdout open would keep the shim
// from ever reading its end.
func startChild(cmd *exec.Cmd) (exited func(), err error) {
	job, err := killOnCloseJob()
	if err != nil {
		return nil, err
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED
	if err := cmd.Start(); err != nil {
		windows.CloseHandle(job)
		return nil, err
	}
	if err := joinAndResume(job, uint32(cmd.Process.Pid)); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		windows.CloseHandle(job)
		return nil, fmt.Errorf("tie the upstream (pid %d) to the shim's life: %w", cmd.Process.Pid, err)
	}
	return func() { windows.TerminateJobObject(job, 1) }, nil
}

// readNow is never reached on Windows: a pipe there takes no read
// deadline, so the shim reads the upstream's output until the pipe closes,
// which it does once the job's processes are gone.
func readNow(f *os.File, p []byte) (int, error) { return 0, io.EOF }

func killOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("create a job object for the upstream: %w", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("make the upstream's job kill it on close: %w", err)
	}
	return job, nil
}

// joinAndResume assigns the suspended process pid to job and resumes its
// threads (a new process has one; os/exec gives no handle to it).
func joinAndResume(job windows.Handle, pid uint32) error {
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		return fmt.Errorf("open process: %w", err)
	}
	defer windows.CloseHandle(p)
	if err := windows.AssignProcessToJobObject(job, p); err != nil {
		return fmt.Errorf("assign to job object: %w", err)
	}
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("list threads: %w", err)
	}
	defer windows.CloseHandle(snap)
	resumed := 0
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("open thread %d: %w", te.ThreadID, err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("resume thread %d: %w", te.ThreadID, err)
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("list threads: %w", err)
	}
	if resumed == 0 {
		return errors.New("found no thread to resume")
	}
	return nil
}

// childAttr: startChild does the work a parent-death signal does on Linux.
func childAttr() *syscall.SysProcAttr { return nil }
