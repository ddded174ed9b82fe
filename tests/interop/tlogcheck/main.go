// tlogcheck: an outside check of a Tiplu log with Go's golang.org/x/mod/sumdb/note and
// sumdb/tlog (Debian's golang-golang-x-mod-dev), used by tests/interop/test_go_interop.py.
//
//	tlogcheck -url http://127.0.0.1:PORT -prefix /log/OP/ -vkey NAME+ID+KEY
//	          [-checkpoint FILE] [-witness NAME=HEXKEY ...] [-sizes 1,5,9]
//
// It reads the checkpoint (from FILE, else <url><prefix>checkpoint) and checks:
//   - its body is exactly three lines (origin, size, root);
//   - note.Open verifies the log's Ed25519 signature under -vkey; cosignature lines of
//     other keys (type 0x04, which x/mod does not know) are left unverified, not refused;
//   - each -witness's cosignature line (C2SP tlog-cosignature cosignature/v1) verifies with
//     crypto/ed25519 over "cosignature/v1\ntime <t>\n" + the note text;
//   - the tree hash from the C2SP tiles (<prefix>tile/<L>/<N>[.p/<W>], height 8, read through
//     tlog.TileHashReader, which authenticates every tile) is the signed root;
//   - every entry of the entry bundles hashes (tlog.RecordHash) to its leaf hash in the tiles;
//   - every leaf's inclusion proof from the JSON API (/api/v1/log/proof/inclusion) passes
//     tlog.CheckRecord, and equals tlog.ProveRecord's from the tiles;
//   - for each -sizes m: the API's consistency proof m -> N passes tlog.CheckTree.
//
// Prints one JSON line of counts and exits 0, or prints one line "FAIL: ..." and exits 1.
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type witnesses []string

func (w *witnesses) String() string     { return strings.Join(*w, ",") }
func (w *witnesses) Set(v string) error { *w = append(*w, v); return nil }

var base, prefix string

func fail(format string, args ...interface{}) {
	fmt.Printf("FAIL: "+format+"\n", args...)
	os.Exit(1)
}

func get(path string) []byte {
	resp, err := http.Get(base + path)
	if err != nil {
		fail("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		fail("GET %s: status %d %v", path, resp.StatusCode, err)
	}
	return body
}

func indexPath(n int64) string {
	s := fmt.Sprintf("%03d", n%1000)
	for n /= 1000; n > 0; n /= 1000 {
		s = fmt.Sprintf("x%03d/", n%1000) + s
	}
	return s
}

func tilePath(level string, n int64, w int) string {
	p := "tile/" + level + "/" + indexPath(n)
	if w < 256 {
		p += ".p/" + strconv.Itoa(w)
	}
	return p
}

// c2spTiles reads C2SP tlog-tiles (no height element in the path; height 8).
type c2spTiles struct{}

func (c2spTiles) Height() int { return 8 }
func (c2spTiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		out[i] = get(prefix + tilePath(strconv.Itoa(t.L), t.N, t.W))
	}
	return out, nil
}
func (c2spTiles) SaveTiles([]tlog.Tile, [][]byte) {}

func hexHashes(list []string) []tlog.Hash {
	out := make([]tlog.Hash, len(list))
	for i, h := range list {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != 32 {
			fail("bad hash %q", h)
		}
		copy(out[i][:], b)
	}
	return out
}

func main() {
	var vkey, cpFile, sizes string
	var ws witnesses
	flag.StringVar(&base, "url", "", "the server's base URL")
	flag.StringVar(&prefix, "prefix", "", "the log's tiles prefix (/log/<operator>/)")
	flag.StringVar(&vkey, "vkey", "", "the log's note verifier key")
	flag.StringVar(&cpFile, "checkpoint", "", "read the checkpoint from this file")
	flag.StringVar(&sizes, "sizes", "", "earlier tree sizes to prove consistent with the checkpoint")
	flag.Var(&ws, "witness", "NAME=HEXKEY of a witness whose cosignature must verify")
	flag.Parse()

	var text []byte
	if cpFile != "" {
		var err error
		if text, err = os.ReadFile(cpFile); err != nil {
			fail("%v", err)
		}
	} else {
		text = get(prefix + "checkpoint")
	}
	verifier, err := note.NewVerifier(vkey)
	if err != nil {
		fail("vkey: %v", err)
	}
	n, err := note.Open(text, note.VerifierList(verifier))
	if err != nil {
		fail("note.Open: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(n.Text, "\n"), "\n")
	if len(lines) != 3 {
		fail("the checkpoint body has %d lines, not 3", len(lines))
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || strconv.FormatInt(size, 10) != lines[1] {
		fail("bad size line %q", lines[1])
	}
	rootBytes, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(rootBytes) != 32 {
		fail("bad root line %q", lines[2])
	}
	var root tlog.Hash
	copy(root[:], rootBytes)

	// witnesses: cosignature/v1 over the note text, key id with type 0x04
	cosigned := []string{}
	for _, w := range ws {
		name, keyHex, _ := strings.Cut(w, "=")
		pub, err := hex.DecodeString(keyHex)
		if err != nil || len(pub) != 32 {
			fail("bad witness key %q", w)
		}
		id := sha256.Sum256(append(append([]byte(name), '\n', 0x04), pub...))
		found := false
		for _, s := range n.UnverifiedSigs {
			raw, err := base64.StdEncoding.DecodeString(s.Base64)
			if s.Name != name || err != nil || len(raw) != 4+8+64 || !bytes.Equal(raw[:4], id[:4]) {
				continue
			}
			t := binary.BigEndian.Uint64(raw[4:12])
			msg := append([]byte(fmt.Sprintf("cosignature/v1\ntime %d\n", t)), n.Text...)
			if !ed25519.Verify(pub, msg, raw[12:]) {
				fail("witness %s's cosignature does not verify", name)
			}
			found = true
		}
		if !found {
			fail("no cosignature line of witness %s", name)
		}
		cosigned = append(cosigned, name)
	}

	// the tree from the tiles
	tree := tlog.Tree{N: size, Hash: root}
	hr := tlog.TileHashReader(tree, c2spTiles{})
	got, err := tlog.TreeHash(size, hr)
	if err != nil || got != root {
		fail("the tiles' tree hash is not the signed root: %v", err)
	}
	// entry bundles: uint16 BE length-prefixed entries, each hashing to its leaf
	for b := int64(0); b*256 < size; b++ {
		w := size - b*256
		if w > 256 {
			w = 256
		}
		data := get(prefix + tilePath("entries", b, int(w)))
		for i := int64(0); i < w; i++ {
			if len(data) < 2 {
				fail("entry bundle %d is short", b)
			}
			l := int(binary.BigEndian.Uint16(data[:2]))
			entry := data[2 : 2+l]
			data = data[2+l:]
			leaf, err := hr.ReadHashes([]int64{tlog.StoredHashIndex(0, b*256+i)})
			if err != nil || tlog.RecordHash(entry) != leaf[0] {
				fail("entry %d does not hash to its leaf in the tiles: %v", b*256+i, err)
			}
		}
		if len(data) != 0 {
			fail("entry bundle %d has bytes after its %d entries", b, w)
		}
	}
	// inclusion proofs from the JSON API, for every leaf
	for i := int64(0); i < size; i++ {
		var p struct {
			LeafHash string   `json:"leaf_hash"`
			Path     []string `json:"path"`
		}
		if err := json.Unmarshal(get(fmt.Sprintf("/api/v1/log/proof/inclusion?index=%d&size=%d", i, size)), &p); err != nil {
			fail("inclusion %d: %v", i, err)
		}
		leaf := hexHashes([]string{p.LeafHash})[0]
		proof := tlog.RecordProof(hexHashes(p.Path))
		if err := tlog.CheckRecord(proof, size, root, i, leaf); err != nil {
			fail("inclusion proof of leaf %d: %v", i, err)
		}
		mine, err := tlog.ProveRecord(size, i, hr)
		if err != nil || len(mine) != len(proof) {
			fail("ProveRecord %d: %v", i, err)
		}
		for k := range mine {
			if mine[k] != proof[k] {
				fail("inclusion proof of leaf %d differs from tlog.ProveRecord's at %d", i, k)
			}
		}
	}
	// consistency proofs from the JSON API
	nCons := 0
	for _, s := range strings.Split(sizes, ",") {
		if s == "" {
			continue
		}
		m, err := strconv.ParseInt(s, 10, 64)
		if err != nil || m < 1 || m > size {
			fail("bad size %q", s)
		}
		var p struct {
			Path []string `json:"path"`
		}
		if err := json.Unmarshal(get(fmt.Sprintf("/api/v1/log/proof/consistency?first=%d&second=%d", m, size)), &p); err != nil {
			fail("consistency %d: %v", m, err)
		}
		old, err := tlog.TreeHash(m, hr)
		if err != nil {
			fail("TreeHash(%d): %v", m, err)
		}
		if err := tlog.CheckTree(tlog.TreeProof(hexHashes(p.Path)), size, root, m, old); err != nil {
			fail("consistency proof %d -> %d: %v", m, size, err)
		}
		nCons++
	}
	out, _ := json.Marshal(map[string]interface{}{
		"origin": lines[0], "size": size, "body_lines": len(lines), "verified_by": n.Sigs[0].Name,
		"unverified_lines": len(n.UnverifiedSigs), "cosigned": cosigned, "inclusion": size, "consistency": nCons,
	})
	fmt.Println(string(out))
}
