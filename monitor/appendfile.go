package monitor

import (
	"encoding/json"
	"fmt"
	"os"
)

// AppendDocuments appends docs, one JSON object per line, to the file at
// path, created if missing; "" writes nothing ("gleaner monitor --out"
// collects every round's documents in one file).
func AppendDocuments(path string, docs []Document) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			f.Close()
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	return f.Close()
}
