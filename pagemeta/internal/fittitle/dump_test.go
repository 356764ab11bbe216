package main

import (
	"fmt"
	"os"
	"testing"
)

func TestDumpHeldOut(t *testing.T) {
	path := os.Getenv("FITTITLE_RECORDS")
	if path == "" {
		t.Skip()
	}
	recs, err := loadRecords(t.Context(), nil, path, true, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	held := heldOut(recs)
	for i, r := range recs {
		y, ru := r.right(), r.ruleIndex()
		if y < 0 || held[i] == ru || !(held[i] == y || ru == y) {
			continue
		}
		tag := "FIX"
		if ru == y {
			tag = "BREAK"
		}
		fmt.Printf("%s %s %s gold=%q rule=%q pick=%q\n", tag, r.Era, r.ID, r.Gold, r.Cands[ru].Text, r.Cands[held[i]].Text)
	}
}
