// Command sumdb-check verifies the seal log's checkpoints and proofs with Go's own
// golang.org/x/mod/sumdb/note and sumdb/tlog (issue 30 item 7): an implementation independent
// of ours reads the same bytes. It reads one JSON request on stdin and prints one JSON answer.
package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type request struct {
	VerifierKey string `json:"verifier_key"`
	// Checkpoint is a C2SP signed note; its text is origin, size, base64 root.
	Checkpoint string `json:"checkpoint"`
	// Leaves to prove in Checkpoint's tree.
	Inclusions []struct {
		LeafIndex int64    `json:"leaf_index"`
		Entry     string   `json:"entry"`
		Proof     []string `json:"inclusion_proof"`
	} `json:"inclusions"`
	// Older, when set, is a checkpoint Checkpoint must extend with ConsistencyProof.
	Older            string   `json:"older"`
	ConsistencyProof []string `json:"consistency_proof"`
}

type answer struct {
	Checkpoint  string   `json:"checkpoint"`
	Inclusions  []string `json:"inclusions"`
	Consistency string   `json:"consistency"`
}

// openTree verifies a note with the log key and reads its tree; the origin must be the key name.
func openTree(text string, verifiers note.Verifiers, origin string) (tlog.Tree, error) {
	n, err := note.Open([]byte(text), verifiers)
	if err != nil {
		return tlog.Tree{}, err
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 || lines[0] != origin {
		return tlog.Tree{}, errors.New("checkpoint origin is not the log key's name")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		return tlog.Tree{}, errors.New("malformed tree size")
	}
	root, err := tlog.ParseHash(lines[2])
	if err != nil {
		return tlog.Tree{}, err
	}
	return tlog.Tree{N: size, Hash: root}, nil
}

func hashes(encoded []string) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(encoded))
	for i, text := range encoded {
		raw, err := base64.StdEncoding.DecodeString(text)
		if err != nil || len(raw) != tlog.HashSize {
			return nil, fmt.Errorf("proof hash %d is not 32 bytes of base64", i)
		}
		copy(out[i][:], raw)
	}
	return out, nil
}

func verdict(err error) string {
	if err == nil {
		return "ok"
	}
	return "refused: " + err.Error()
}

func main() {
	var req request
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		fmt.Fprintln(os.Stderr, "sumdb-check: bad request:", err)
		os.Exit(2)
	}
	verifier, err := note.NewVerifier(req.VerifierKey)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sumdb-check: bad verifier key:", err)
		os.Exit(2)
	}
	verifiers := note.VerifierList(verifier)
	var out answer
	tree, err := openTree(req.Checkpoint, verifiers, verifier.Name())
	out.Checkpoint = verdict(err)
	for _, inclusion := range req.Inclusions {
		proof, perr := hashes(inclusion.Proof)
		if err != nil {
			perr = err
		} else if perr == nil {
			perr = tlog.CheckRecord(proof, tree.N, tree.Hash, inclusion.LeafIndex, tlog.RecordHash([]byte(inclusion.Entry)))
		}
		out.Inclusions = append(out.Inclusions, verdict(perr))
	}
	if req.Older != "" {
		older, cerr := openTree(req.Older, verifiers, verifier.Name())
		if cerr == nil && err != nil {
			cerr = err
		}
		if cerr == nil {
			var proof []tlog.Hash
			if proof, cerr = hashes(req.ConsistencyProof); cerr == nil {
				cerr = tlog.CheckTree(proof, tree.N, tree.Hash, older.N, older.Hash)
			}
		}
		out.Consistency = verdict(cerr)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		os.Exit(2)
	}
}
