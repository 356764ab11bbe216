package relevance

import (
	"hash/fnv"
	"math/bits"
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// SimHash is a 64-bit fingerprint of a text's word 3-gram shingles (Charikar
// 2002): near-duplicate texts have fingerprints a few bits apart.
type SimHash uint64

// NewSimHash fingerprints a text. Words are lower-cased; a text of fewer than
// three words is fingerprinted from its words.
func NewSimHash(text string) SimHash {
	ws := treediff.Words(text)
	words := make([]string, len(ws))
	for i, w := range ws {
		words[i] = strings.ToLower(w.Text)
	}
	var v [64]int
	add := func(s string) {
		h := fnv.New64a()
		h.Write([]byte(s))
		x := h.Sum64()
		for i := range v {
			if x&(1<<i) != 0 {
				v[i]++
			} else {
				v[i]--
			}
		}
	}
	if len(words) < 3 {
		for _, w := range words {
			add(w)
		}
	}
	for i := 0; i+3 <= len(words); i++ {
		add(words[i] + " " + words[i+1] + " " + words[i+2])
	}
	var out uint64
	for i := range v {
		if v[i] > 0 {
			out |= 1 << i
		}
	}
	return SimHash(out)
}

// Distance is the number of differing bits.
func (a SimHash) Distance(b SimHash) int { return bits.OnesCount64(uint64(a ^ b)) }

// NearDuplicates remembers fingerprints and tells whether a new one is within
// MaxBits of one already seen (default 3 of 64 bits).
type NearDuplicates struct {
	MaxBits int
	seen    []SimHash
}

// Add remembers fingerprints without checking them (those of texts kept
// before, by this process or another).
func (d *NearDuplicates) Add(hs ...SimHash) { d.seen = append(d.seen, hs...) }

// Seen reports whether h is a near-duplicate of an earlier fingerprint, and
// remembers h if not. A linear scan: crawls keep thousands, not billions.
func (d *NearDuplicates) Seen(h SimHash) bool {
	max := d.MaxBits
	if max <= 0 {
		max = 3
	}
	for _, s := range d.seen {
		if s.Distance(h) <= max {
			return true
		}
	}
	d.seen = append(d.seen, h)
	return false
}
