package approval

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
	"unicode/utf8"

	"github.com/flowd-dev/flowd/internal/atomicfile"
)

// MinLength is the shortest passphrase accepted, in characters. The
// verifier of a per-user flowd is readable by the user's processes, so
// the passphrase must stand up to guessing offline.
const MinLength = 12

// iterations of PBKDF2-HMAC-SHA256 in a new verifier: OWASP's figure for
// it in 2023. A verifier keeps its own count, so tests may lower this.
var iterations = 600_000

// Verifier is what flowd keeps of a passphrase, and of the guesses made
// at it: the count and lockout live in the same file, so that neither a
// restart of flowd nor removing a file beside it gives fresh guesses.
type Verifier struct {
	Salt       []byte    `json:"salt"`
	Iterations int       `json:"iterations"`
	Hash       []byte    `json:"hash"`
	Set        time.Time `json:"set"`
	// By is who set it, as flowd saw the asking process (its pid, the
	// processes it descends from): for the user to recognise, or not.
	By string `json:"by,omitempty"`
	// Wrong is how many guesses in a row were not the passphrase (or
	// were being checked when flowd stopped); LockedUntil is when the
	// next guess is heard.
	Wrong       int       `json:"wrong,omitempty"`
	LockedUntil time.Time `json:"locked_until,omitzero"`
}

// ErrWeak is a passphrase too short to set.
var ErrWeak = fmt.Errorf("a passphrase needs at least %d characters: a few words you remember work well", MinLength)

// New makes the verifier of pass.
func New(pass string, now time.Time) (Verifier, error) {
	if utf8.RuneCountInString(pass) < MinLength {
		return Verifier{}, ErrWeak
	}
	salt := make([]byte, 16)
	rand.Read(salt) // never fails (crypto/rand)
	h, err := pbkdf2.Key(sha256.New, pass, salt, iterations, 32)
	if err != nil {
		return Verifier{}, fmt.Errorf("hash passphrase: %w", err)
	}
	return Verifier{Salt: salt, Iterations: iterations, Hash: h, Set: now.UTC()}, nil
}

// Check reports whether pass is the passphrase v was made from.
func (v Verifier) Check(pass string) bool {
	if v.Iterations <= 0 || len(v.Hash) == 0 {
		return false
	}
	h, err := pbkdf2.Key(sha256.New, pass, v.Salt, v.Iterations, len(v.Hash))
	return err == nil && subtle.ConstantTimeCompare(h, v.Hash) == 1
}

// Load reads the verifier at path; ok is false when none is set.
func Load(path string) (v Verifier, ok bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Verifier{}, false, nil
	}
	if err != nil {
		return Verifier{}, false, fmt.Errorf("read approval passphrase %s: %w", path, err)
	}
	if err := json.Unmarshal(b, &v); err != nil || len(v.Hash) == 0 || v.Iterations <= 0 || v.Wrong < 0 {
		// Not "none set": that would let whoever damaged it set a new one.
		return Verifier{}, false, fmt.Errorf("approval passphrase %s is damaged: remove it and set the passphrase again (flowd passphrase set)", path)
	}
	return v, true, nil
}

// Save writes v to path, readable by its owner only, replacing the file
// whole.
func Save(path string, v Verifier) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, b, 0o600); err != nil {
		return fmt.Errorf("save approval passphrase: %w", err)
	}
	return nil
}
