package attackprint

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// FeedFormat names the feed file's layout.
const FeedFormat = "flowd-attack-prints/1"

// MaxFeedBytes bounds a feed file read.
const MaxFeedBytes = 32 << 20

// feedFile is a feed as written: the body exactly as signed, the signer's
// public key and the signature over the body's bytes. Signing bytes as
// they lie in the file, not a re-encoding, leaves nothing to canonicalise.
type feedFile struct {
	Body json.RawMessage `json:"body"`
	Key  string          `json:"key"`
	Sig  string          `json:"sig"`
}

type feedBody struct {
	Format  string    `json:"format"`
	Created time.Time `json:"created"`
	// Seq grows with each feed a signer publishes, so that a subscriber
	// can refuse an older feed served again (a replay that would hide
	// the prints added since). Feeds from before it was written read 0.
	Seq    uint64  `json:"seq,omitempty"`
	Prints []Print `json:"prints"`
}

// Feed is a feed read and verified: its prints and what its signer says
// about it.
type Feed struct {
	Prints  []Print
	Skipped int    // prints not shaped as flowd makes them, dropped
	Key     string // the signer, as PublicKey writes it
	Created time.Time
	Seq     uint64
}

// PublicKey is how a feed's signer is written in config: "ed25519:" and
// the key in base64.
func PublicKey(k ed25519.PublicKey) string {
	return "ed25519:" + base64.StdEncoding.EncodeToString(k)
}

// ParsePublicKey reads a key written by PublicKey.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b64, ok := strings.CutPrefix(strings.TrimSpace(s), "ed25519:")
	if !ok {
		return nil, fmt.Errorf("feed key %q: want ed25519:<base64>", s)
	}
	k, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(k) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("feed key %q: not a %d-byte Ed25519 key in base64", s, ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(k), nil
}

// WriteFeed writes prints as a feed signed with key, its sequence number
// the time in milliseconds (see WriteFeedSeq). The prints' Source is not
// exported: an importer names the source itself.
func WriteFeed(w io.Writer, prints []Print, key ed25519.PrivateKey, now time.Time) error {
	return WriteFeedSeq(w, prints, key, now, uint64(now.UnixMilli()))
}

// WriteFeedSeq writes a feed numbered seq: a subscriber takes a feed
// only if its number is not below the last one it took.
func WriteFeedSeq(w io.Writer, prints []Print, key ed25519.PrivateKey, now time.Time, seq uint64) error {
	out := make([]Print, len(prints))
	for i, p := range prints {
		p.Source = ""
		out[i] = p
	}
	body, err := json.Marshal(feedBody{Format: FeedFormat, Created: now.UTC(), Seq: seq, Prints: out})
	if err != nil {
		return fmt.Errorf("encode feed: %w", err)
	}
	f := feedFile{Body: body, Key: PublicKey(key.Public().(ed25519.PublicKey)),
		Sig: base64.StdEncoding.EncodeToString(ed25519.Sign(key, body))}
	// Not indented: an indenting encoder would re-indent the body too, and
	// the signature is over its bytes.
	if err := json.NewEncoder(w).Encode(f); err != nil {
		return fmt.Errorf("write feed: %w", err)
	}
	return nil
}

// ErrUntrusted is returned by ReadFeed for a feed signed by a key not
// among the trusted ones.
var ErrUntrusted = errors.New("feed signed by a key that is not trusted")

// ReadFeed reads a feed, checks that one of trusted signed it, and returns
// its prints with Source naming the signer. Prints not shaped as flowd
// makes them are dropped and counted in skipped.
func ReadFeed(r io.Reader, trusted []ed25519.PublicKey) (prints []Print, skipped int, err error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxFeedBytes+1))
	if err != nil {
		return nil, 0, fmt.Errorf("read feed: %w", err)
	}
	if len(raw) > MaxFeedBytes {
		return nil, 0, fmt.Errorf("feed larger than %d MB", MaxFeedBytes>>20)
	}
	f, err := VerifyFeed(raw, trusted)
	return f.Prints, f.Skipped, err
}

// VerifyFeed checks that one of trusted signed the feed file raw and
// reads it; nothing of a feed that fails is returned.
func VerifyFeed(raw []byte, trusted []ed25519.PublicKey) (Feed, error) {
	var f feedFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return Feed{}, fmt.Errorf("feed is not a flowd feed file: %w", err)
	}
	key, err := ParsePublicKey(f.Key)
	if err != nil {
		return Feed{}, err
	}
	sig, err := base64.StdEncoding.DecodeString(f.Sig)
	if err != nil {
		return Feed{}, fmt.Errorf("feed signature: %w", err)
	}
	// The key in the file only says which trusted key to check with.
	if !slices.ContainsFunc(trusted, func(k ed25519.PublicKey) bool { return k.Equal(key) }) {
		return Feed{}, fmt.Errorf("%w: %s (trust it in injection.known_attacks to accept its feeds)", ErrUntrusted, f.Key)
	}
	if !ed25519.Verify(key, f.Body, sig) {
		return Feed{}, fmt.Errorf("feed signed by %s: the signature does not match its content (changed after signing?)", f.Key)
	}
	var body feedBody
	if err := json.NewDecoder(bytes.NewReader(f.Body)).Decode(&body); err != nil {
		return Feed{}, fmt.Errorf("feed body: %w", err)
	}
	if body.Format != FeedFormat {
		return Feed{}, fmt.Errorf("feed format %q: this flowd reads %q", body.Format, FeedFormat)
	}
	out := Feed{Key: f.Key, Created: body.Created, Seq: body.Seq}
	for _, p := range body.Prints {
		if !p.valid() {
			out.Skipped++
			continue
		}
		p.Source = f.Key
		out.Prints = append(out.Prints, p)
	}
	return out, nil
}
