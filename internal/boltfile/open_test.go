package boltfile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

var (
	bucketA = []byte("a")
	bucketB = []byte("b")
)

// sample writes a real bbolt file with what flowd's stores hold: many
// small records (branch pages), values longer than a page (overflow),
// a nested bucket, an inline bucket, and freed pages.
func sample(t *testing.T, path string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		a, err := tx.CreateBucket(bucketA)
		require.NoError(t, err)
		for i := range 600 {
			require.NoError(t, a.Put(key(i), []byte(fmt.Sprintf(`{"n":%d,"pad":%q}`, i, strings.Repeat("x", i%50)))))
		}
		inner, err := a.CreateBucket([]byte("inner"))
		require.NoError(t, err)
		for i := range 100 {
			require.NoError(t, inner.Put(key(i), []byte("inner value")))
		}
		tiny, err := tx.CreateBucket([]byte("tiny"))
		require.NoError(t, err)
		require.NoError(t, tiny.Put([]byte("k"), []byte("v")))
		b, err := tx.CreateBucket(bucketB)
		require.NoError(t, err)
		for i := range 2 {
			require.NoError(t, b.Put(key(i), bytes.Repeat([]byte{byte('A' + i)}, 10_000)))
		}
		return nil
	}))
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		a := tx.Bucket(bucketA)
		for i := 0; i < 600; i += 3 {
			require.NoError(t, a.Delete(key(i)))
		}
		return nil
	}))
	require.NoError(t, db.Close())
}

func key(i int) []byte { return binary.BigEndian.AppendUint64(nil, uint64(i)) }

// readAll reads every key and value, as the stores will; a damaged file
// that Open let through would fault or panic here.
func readAll(t *testing.T, db *bolt.DB) int {
	t.Helper()
	n := 0
	var walk func(b *bolt.Bucket)
	walk = func(b *bolt.Bucket) {
		require.NoError(t, b.ForEach(func(k, v []byte) error {
			n++
			if v == nil {
				walk(b.Bucket(k))
			}
			return nil
		}))
	}
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(_ []byte, b *bolt.Bucket) error { walk(b); return nil })
	}))
	return n
}

func opts() Options {
	return Options{What: "test store", Buckets: [][]byte{bucketA}, Recover: true, Timeout: 200 * time.Millisecond,
		Now: func() time.Time { return time.Date(2026, 11, 27, 6, 0, 0, 0, time.UTC) }}
}

func TestHealthyFileOpensAsItIs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	sample(t, path)
	db, dmg, err := Open(path, opts())
	require.NoError(t, err)
	defer db.Close()
	assert.Nil(t, dmg)
	assert.Equal(t, 600-200+1+100+1+2, readAll(t, db))
	require.NoError(t, Inspect(path, "test store"))
}

func TestTruncatedFileIsMovedAsideAndAFreshOneWorks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.db")
	sample(t, path)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(path, fi.Size()/2))

	var derr *DamagedError
	require.ErrorAs(t, Inspect(path, "test store"), &derr)
	assert.Contains(t, derr.Reason, "cut short")

	db, dmg, err := Open(path, opts())
	require.NoError(t, err)
	defer db.Close()
	require.NotNil(t, dmg)
	assert.Equal(t, path+".damaged-20261127T060000Z", dmg.MovedTo)
	assert.Contains(t, dmg.Reason, "cut short")
	moved, err := os.Stat(dmg.MovedTo)
	require.NoError(t, err, "the damaged file is kept")
	assert.Equal(t, fi.Size()/2, moved.Size())

	// The fresh file has the store's buckets and takes writes.
	require.NoError(t, db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketA).Put([]byte("k"), []byte("v")) }))
	assert.Equal(t, 1, readAll(t, db))
}

func TestDamagedFileWithoutRecoverIsReportedAndLeftAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.db")
	sample(t, path)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(path, fi.Size()/2))
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	o := opts()
	o.Recover = false
	_, _, err = Open(path, o)
	require.ErrorIs(t, err, ErrDamaged)
	assert.ErrorContains(t, err, "test store "+path+" is damaged: it is")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing moved aside")
}

// TestFlippedBitsNeverCrash flips one bit in turn at offsets that matter
// in every page (its ID, type, count, overflow, first elements, middle,
// end) and in both headers. Open must never crash, and what it returns
// must be readable whole and writable: flipped data bytes may pass, flipped
// structure must be moved aside.
func TestFlippedBitsNeverCrash(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.db")
	sample(t, orig)
	data, err := os.ReadFile(orig)
	require.NoError(t, err)
	ps := os.Getpagesize()
	m0, ok0 := parseMeta(data[pageHeaderSize:])
	m1, ok1 := parseMeta(data[ps+pageHeaderSize:])
	require.True(t, ok0 && ok1)
	used := int(max(m0.pages, m1.pages)) // bbolt grows the file ahead; pages past this are unused
	offsets := []int{0, 8, 12, 16, 24, ps / 2}
	detected, tried := 0, 0
	for page := 0; page < used; page++ {
		for i, off := range offsets {
			at := page*ps + off
			flipped := bytes.Clone(data)
			flipped[at] ^= 1 << ((page + i) % 8)
			path := filepath.Join(dir, fmt.Sprintf("p%d-%d.db", page, off))
			require.NoError(t, os.WriteFile(path, flipped, 0o600))
			db, dmg, err := Open(path, opts())
			require.NoError(t, err, "byte %d", at)
			readAll(t, db)
			require.NoError(t, db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketA).Put([]byte("new"), []byte("v")) }), "byte %d", at)
			require.NoError(t, db.Close())
			tried++
			if dmg != nil {
				detected++
			}
		}
	}
	t.Logf("%d of %d flips found damaged", detected, tried)
	assert.Greater(t, detected, tried/10, "flips in page headers must be found")
}

// TestLockedFileIsNeverJudged: a file another process holds is that
// process's; even damaged, it stays where it is.
func TestLockedFileIsNeverJudged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.db")
	sample(t, path)
	holder, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	defer holder.Close()
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(path, fi.Size()/2))

	_, _, err = Open(path, opts())
	require.ErrorContains(t, err, "still locked by another process")
	assert.NotErrorIs(t, err, ErrDamaged)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing moved aside")
	require.NoError(t, os.Truncate(path, fi.Size())) // let holder close cleanly
}

func TestMoveAsideNumbersTakenNames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.db")
	for i, want := range []string{".damaged-20261127T060000Z", ".damaged-20261127T060000Z-2", ".damaged-20261127T060000Z-3"} {
		require.NoError(t, os.WriteFile(path, []byte("not a bbolt file, but long enough to hold a header: "+strings.Repeat("x", 200)), 0o600))
		db, dmg, err := Open(path, opts())
		require.NoError(t, err, "round %d", i)
		require.NoError(t, db.Close())
		require.NotNil(t, dmg)
		assert.Equal(t, path+want, dmg.MovedTo)
	}
}

// rootOfA is the page of bucket a's root (a branch page in the sample).
func rootOfA(t *testing.T, path string) uint64 {
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	defer db.Close()
	var root uint64
	require.NoError(t, db.View(func(tx *bolt.Tx) error { root = uint64(tx.Bucket(bucketA).Root()); return nil }))
	return root
}

// TestDamageIsFound damages the sample on purpose where bbolt itself does
// not look, or looks too late: a cycle makes its cursor and tx.Check
// descend forever; keys out of order and a used page listed free pass its
// open and reads, and corrupt the file further on the next writes.
func TestDamageIsFound(t *testing.T) {
	ps := uint64(os.Getpagesize())
	le := binary.NativeEndian
	for _, tc := range []struct {
		name, want string
		damage     func(t *testing.T, data []byte, root uint64)
	}{
		{"both headers flipped", "neither of its two headers", func(t *testing.T, data []byte, root uint64) {
			data[pageHeaderSize+20] ^= 1
			data[ps+pageHeaderSize+20] ^= 1
		}},
		{"branch page pointing at itself", "referenced twice", func(t *testing.T, data []byte, root uint64) {
			require.NotZero(t, le.Uint16(data[root*ps+8:])&branchFlag, "the sample's bucket has a branch page at its root")
			le.PutUint64(data[root*ps+pageHeaderSize+8:], root) // first element's child
		}},
		{"key out of order", "out of order", func(t *testing.T, data []byte, root uint64) {
			leaf := le.Uint64(data[root*ps+pageHeaderSize+elementSize+8:]) // the second child
			e := leaf*ps + pageHeaderSize
			data[e+uint64(le.Uint32(data[e+4:]))] = 0xff // first key's first byte
		}},
		{"used page listed free", "listed free but is in use", func(t *testing.T, data []byte, root uint64) {
			m, ok := parseMeta(data[pageHeaderSize:])
			if m1, ok1 := parseMeta(data[ps+pageHeaderSize:]); ok1 && (!ok || m1.txid > m.txid) {
				m = m1
			}
			fl := m.freelist * ps
			require.NotZero(t, le.Uint16(data[fl+10:]), "the sample has free pages")
			le.PutUint64(data[fl+pageHeaderSize:], root)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.db")
			sample(t, path)
			root := rootOfA(t, path)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			tc.damage(t, data, root)
			require.NoError(t, os.WriteFile(path, data, 0o600))
			db, dmg, err := Open(path, opts())
			require.NoError(t, err)
			defer db.Close()
			require.NotNil(t, dmg)
			assert.Contains(t, dmg.Reason, tc.want)
		})
	}
}

// TestGuardTurnsAFaultIntoAnError cuts the file short under an open
// database, as another process could: reading it faults (SIGBUS), which
// must be an error, not the end of flowd.
func TestGuardTurnsAFaultIntoAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	sample(t, path)
	db, dmg, err := Open(path, opts())
	require.NoError(t, err)
	defer db.Close()
	require.Nil(t, dmg)
	require.NoError(t, os.Truncate(path, int64(2*os.Getpagesize())))
	err = View(db, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketA).ForEach(func(k, v []byte) error { return nil })
	})
	require.ErrorIs(t, err, ErrDamaged)
	assert.ErrorContains(t, err, "reading the file failed (runtime error")
}
