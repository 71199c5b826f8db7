// Package auditkey keeps the Ed25519 key that signs the activity log's
// checkpoints and the feeds of attack prints this flowd exports: a
// private key file only its owner may read, made on first start, and
// beside it the public key, which `flowd audit key` prints for whoever
// verifies the log elsewhere (a SIEM, an auditor) and `flowd fingerprints
// key` for machines that trust this one's feeds.
package auditkey

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/flowd-dev/flowd/internal/atomicfile"
)

// The file names in flowd's data directory.
const (
	PrivateFile = "audit.key"
	PublicFile  = "audit.pub"
)

// LoadOrCreate returns the signing key kept in dir, making it on first
// use. The private key file is 0600 (in a system flowd, root's data
// directory, so root-only); one that others can read is refused rather
// than used, since whoever reads it can forge checkpoints.
func LoadOrCreate(dir string) (ed25519.PrivateKey, error) {
	path := filepath.Join(dir, PrivateFile)
	key, err := loadPrivate(path)
	if !errors.Is(err, fs.ErrNotExist) {
		if err == nil {
			// The public file is only a copy for readers: put back one
			// that went missing.
			err = writePublicIfMissing(dir, key.Public().(ed25519.PublicKey))
		}
		return key, err
	}
	_, key, err = ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("make audit signing key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("encode audit signing key: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create %s for the audit key: %w", dir, err)
	}
	// O_EXCL: two flowds starting at once must not each write a key.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return LoadOrCreate(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("create audit signing key %s: %w", path, err)
	}
	_, err = f.Write(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("write audit signing key %s: %w", path, err)
	}
	return key, writePublic(dir, key.Public().(ed25519.PublicKey))
}

func loadPrivate(path string) (ed25519.PrivateKey, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("audit signing key %s is readable by others (mode %v): anyone who reads it can forge the audit log's checkpoints; chmod 600 it, or remove it to make a new one (checkpoints signed before then verify only against the old public key)", path, fi.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read audit signing key: %w", err)
	}
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("audit signing key %s is not a PEM private key", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("audit signing key %s: %w", path, err)
	}
	key, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("audit signing key %s is not an Ed25519 key", path)
	}
	return key, nil
}

// EncodePublic is pub as PEM (PKIX), the form `flowd audit key` prints
// and openssl reads.
func EncodePublic(pub ed25519.PublicKey) []byte {
	der, _ := x509.MarshalPKIXPublicKey(pub) // cannot fail for an Ed25519 key
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

// ParsePublic reads a public key as EncodePublic writes it.
func ParsePublic(b []byte) (ed25519.PublicKey, error) {
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "PUBLIC KEY" {
		return nil, errors.New("not a PEM public key")
	}
	k, err := x509.ParsePKIXPublicKey(blk.Bytes)
	if err != nil {
		return nil, err
	}
	pub, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, errors.New("not an Ed25519 public key")
	}
	return pub, nil
}

// LoadPublic is the public key kept in dir.
func LoadPublic(dir string) (ed25519.PublicKey, error) {
	path := filepath.Join(dir, PublicFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read audit public key: %w (flowd makes it when it first starts)", err)
	}
	pub, err := ParsePublic(b)
	if err != nil {
		return nil, fmt.Errorf("audit public key %s: %w", path, err)
	}
	return pub, nil
}

func writePublic(dir string, pub ed25519.PublicKey) error {
	path := filepath.Join(dir, PublicFile)
	if err := atomicfile.Write(path, EncodePublic(pub), 0o644); err != nil {
		return fmt.Errorf("write audit public key: %w", err)
	}
	return nil
}

func writePublicIfMissing(dir string, pub ed25519.PublicKey) error {
	if _, err := os.Stat(filepath.Join(dir, PublicFile)); errors.Is(err, fs.ErrNotExist) {
		return writePublic(dir, pub)
	}
	return nil
}
