package managed

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Rights that let their holder change a file (fileWrite) or replace what
// a directory holds (dirWrite). Adding a file to a directory is not
// among them: users may do that in %ProgramData%, and a file they add
// is theirs, which checkFile refuses.
const (
	fileWrite = windows.FILE_WRITE_DATA | windows.FILE_APPEND_DATA | windows.DELETE | windows.WRITE_DAC | windows.WRITE_OWNER |
		windows.GENERIC_WRITE | windows.GENERIC_ALL
	dirWrite = 0x40 /* FILE_DELETE_CHILD */ | windows.DELETE | windows.WRITE_DAC | windows.WRITE_OWNER | windows.GENERIC_ALL
)

// trustedInstaller is the TrustedInstaller service's SID, which owns
// system files.
const trustedInstaller = "S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464"

// administrative reports whether sid is the administrators', the
// system's or the installer's.
func administrative(sid *windows.SID) bool {
	return sid.IsWellKnown(windows.WinBuiltinAdministratorsSid) || sid.IsWellKnown(windows.WinLocalSystemSid) ||
		sid.String() == trustedInstaller
}

// checkFile accepts a file owned by an administrative account whose ACL
// lets no one else change it. uid means nothing on Windows.
func checkFile(f *os.File, path string, _ int) error {
	sd, err := windows.GetSecurityInfo(windows.Handle(f.Fd()), windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("inspect the machine's managed policy %s: %w", path, err)
	}
	return checkSD(path, sd, fileWrite)
}

// checkDirs checks each directory from dir up to the volume's root as
// checkFile does a file, with the rights that replace what it holds.
func checkDirs(dir string, _ int, missingOK bool) error {
	for {
		sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT,
			windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
		switch {
		case missingOK && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, windows.ERROR_FILE_NOT_FOUND) || errors.Is(err, windows.ERROR_PATH_NOT_FOUND)):
		case err != nil:
			return fmt.Errorf("inspect %s, above the machine's managed policy: %w", dir, err)
		default:
			// A volume's root belongs to no administrator on every
			// system; its ACL is what matters.
			if err := checkACL(dir, sd, dirWrite); err != nil {
				return err
			}
			if filepath.Dir(dir) != dir {
				if err := checkOwner(dir, sd); err != nil {
					return err
				}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
}

func checkSD(path string, sd *windows.SECURITY_DESCRIPTOR, rights windows.ACCESS_MASK) error {
	if err := checkOwner(path, sd); err != nil {
		return err
	}
	return checkACL(path, sd, rights)
}

func checkOwner(path string, sd *windows.SECURITY_DESCRIPTOR) error {
	owner, _, err := sd.Owner()
	if err != nil {
		return fmt.Errorf("inspect the owner of %s: %w", path, err)
	}
	if !administrative(owner) {
		return refused(path, "belongs to "+owner.String()+", not to Administrators or SYSTEM",
			`takeown /a /f "`+path+`"`)
	}
	return nil
}

// checkACL refuses an ACL that grants any of rights to anyone but the
// administrative accounts. A missing ACL grants everyone everything.
func checkACL(path string, sd *windows.SECURITY_DESCRIPTOR, rights windows.ACCESS_MASK) error {
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		return refused(path, "has no access control list (everyone may change it)", `icacls "`+path+`" /reset`)
	}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return fmt.Errorf("inspect the access control list of %s: %w", path, err)
		}
		switch {
		case ace.Header.AceType == windows.ACCESS_DENIED_ACE_TYPE || ace.Header.AceType == 6 || ace.Header.AceType == 10 || ace.Header.AceType == 12:
			continue // denials (plain, object, callback) only take away
		case ace.Header.AceFlags&windows.INHERIT_ONLY_ACE != 0 || ace.Mask&rights == 0:
			continue // for what this holds, not for itself; or harmless
		case ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE:
			// Object and callback grants: whom they name is not read here.
			return refused(path, fmt.Sprintf("has an access entry of type %d that grants changes", ace.Header.AceType), `icacls "`+path+`" /reset`)
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if !administrative(sid) {
			return refused(path, "may be changed by "+sid.String(), `icacls "`+path+`" /remove `+sid.String())
		}
	}
	return nil
}
