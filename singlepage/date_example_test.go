package singlepage_test

import (
	"fmt"

	"github.com/gleaner/gleaner/singlepage"
)

func ExampleNormalizeDate() {
	for _, s := range []string{"2024-03-01T10:00:00+01:00", "12/28/2005 5:35:18 PM", "By Jane Doe | March 2, 2024", "3 hours ago"} {
		fmt.Printf("%q\n", singlepage.NormalizeDate(s))
	}
	// Output:
	// "2024-03-01T10:00:00+01:00"
	// "2005-12-28T17:35:18"
	// "2024-03-02"
	// ""
}
